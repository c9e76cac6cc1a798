/**
 * The product's main job on its embedded default: start the local platform emulator, run the
 * example workflows through n8n's own engine with this package's nodes, configured as a user
 * configures them before the first run (their placeholders replaced, the credentials' Default App ID
 * set), print what every step returned, and exit 0 only if every workflow succeeded.
 */
import { Cloopen } from '../nodes/Cloopen/Cloopen.node';
import { runWorkflow } from './engine';
import { startEmulator } from '../emulator';
import { emulatorCredentials } from './emulatorCredentials';
import { exampleFiles, loadExample } from './examples';

function printStep(name: string, items: Array<{ json: unknown }>) {
	console.log(`  ▸ ${name} → ${items.length} item(s)`);
	for (const item of items) console.log(`    ${JSON.stringify(item.json, summarize)}`);
}

/** Long lists (250 numbers) are shortened in the printout, not in the data. */
function summarize(_key: string, value: unknown) {
	if (Array.isArray(value) && value.length > 6)
		return [...value.slice(0, 3), `… ${value.length - 3} more`];
	return value;
}

async function main(): Promise<number> {
	const emulator = await startEmulator({ callDurationMs: 1500 });
	console.log(
		`Emulator of the Cloopen platform at ${emulator.baseUrl} (account ${emulator.accountSid}, app ${emulator.appId})\n`,
	);
	let failures = 0;
	try {
		// The trigger-based example needs a webhook; it runs in the tests.
		for (const file of exampleFiles({ startedByHand: true })) {
			const workflow = loadExample(file);
			console.log(`● ${workflow.name}  [examples/${file}]`);
			const result = await runWorkflow(workflow, {
				nodeTypes: [Cloopen],
				credentials: { cloopenApi: emulatorCredentials(emulator, { appId: emulator.appId }) },
			});
			for (const name of result.executionOrder) {
				const error = result.errorOf(name);
				if (error) {
					console.log(
						`  ✗ ${name}: ${error.message}${error.description ? ` — ${error.description}` : ''}`,
					);
				} else {
					printStep(name, result.outputOf(name));
				}
			}
			const ok = result.run.status === 'success' && !result.run.data.resultData.error;
			console.log(ok ? '  ✓ succeeded\n' : `  ✗ failed (${result.run.status})\n`);
			if (!ok) failures++;
		}
		const calls = emulator.calls();
		const messages = emulator.messages();
		console.log(
			`The emulator saw ${emulator.requests().length} API requests, ${calls.length} call(s) and ${messages.length} SMS request(s).`,
		);
	} finally {
		await emulator.close();
	}
	console.log(
		failures === 0 ? 'All example workflows succeeded.' : `${failures} example workflow(s) failed.`,
	);
	return failures === 0 ? 0 : 1;
}

main().then(
	(code) => process.exit(code),
	(error) => {
		console.error(error);
		process.exit(1);
	},
);
