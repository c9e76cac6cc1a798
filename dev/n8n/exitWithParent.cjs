'use strict';
// Preloaded into n8n (NODE_OPTIONS=--require) by n8nInstance.ts: n8n runs in its own process group so
// stop() can end it with its task runner, which also means it would outlive a test process that is
// killed (CI timeout, Ctrl-C, kill -9). This ends n8n gracefully once that process is gone.
const parent = Number(process.env.N8N_E2E_PARENT_PID);
if (parent > 0) {
	const timer = setInterval(() => {
		try {
			process.kill(parent, 0); // only checks that it exists
		} catch {
			clearInterval(timer);
			process.kill(process.pid, 'SIGTERM');
			setTimeout(() => process.exit(1), 20000).unref(); // if the graceful stop hangs
		}
	}, 1000);
	timer.unref();
}
