/** n8n runs as the leader of a process group of its own (n8n and its task runner): these act on the group. */

/** Signals the group led by `pid`; a group with no process left is fine. */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
	if (pid === undefined || pid <= 0) return;
	try {
		process.kill(-pid, signal);
	} catch {
		// no process left in the group
	}
}

/** Whether the process `pid` still exists. */
export function isRunning(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

/** SIGTERM (n8n's graceful shutdown), SIGKILL after `graceMs`, for a group this process did not start. */
export async function endGroup(pid: number, graceMs = 20_000): Promise<void> {
	signalGroup(pid, 'SIGTERM');
	const deadline = Date.now() + graceMs;
	while (isRunning(pid) && Date.now() < deadline)
		await new Promise((resolve) => setTimeout(resolve, 200));
	signalGroup(pid, 'SIGKILL');
}
