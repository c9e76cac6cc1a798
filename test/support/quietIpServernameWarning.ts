/**
 * The HTTP helper of n8n-core 2.11 sets the TLS server name to the request's host, and Node warns
 * (DEP0123, once per process) when that is an IP address: it is one in the tests that use HTTPS,
 * which talk to https://127.0.0.1 only. The node cannot change it (n8n's rules make it use that
 * helper), and n8n 2.41 no longer does it; see README, Development. Exactly that warning is switched off, nothing else: for the test workers by
 * Node's own flag, and in jest's process (a run of one test file uses no workers) at its source.
 */
const CODE = 'DEP0123';

export function quietIpServernameWarning(): void {
	const flag = `--disable-warning=${CODE}`;
	const options = process.env.NODE_OPTIONS ?? '';
	if (!options.split(/\s+/).includes(flag)) process.env.NODE_OPTIONS = `${options} ${flag}`.trim();

	const emitWarning = process.emitWarning;
	process.emitWarning = function (
		this: NodeJS.Process,
		warning: string | Error,
		...rest: unknown[]
	) {
		// Node calls emitWarning(message, type, code) or emitWarning(message, { type, code }).
		const code =
			typeof rest[0] === 'object' && rest[0] !== null
				? (rest[0] as { code?: string }).code
				: rest[1];
		if (code === CODE) return;
		return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
	} as typeof process.emitWarning;
}
