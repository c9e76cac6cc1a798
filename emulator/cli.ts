/**
 * npm run emulator: the local stand-in for the Cloopen platform, for a real n8n or for curl.
 *   --port N            (EMULATOR_PORT, default 8883, the real platform's port; 0 = a free one)
 *   --https             (EMULATOR_HTTPS=true; self-signed certificate)
 *   --latency MS        (EMULATOR_LATENCY_MS, default 0)
 *   --call-duration MS  (EMULATOR_CALL_DURATION_MS, default 5000: long enough to watch a call)
 *   --mode M            (EMULATOR_MODE, default platform: what the real platform accepts; strict: only what docs/platform.md allows)
 *   --record-limit N    (EMULATOR_RECORD_LIMIT, default 10000: requests, calls, SMS and notifications each log keeps)
 *   --record-bytes N    (EMULATOR_RECORD_BYTES, default 67108864: bytes each log keeps at most)
 *   --sub-account-limit N (EMULATOR_SUB_ACCOUNT_LIMIT, default 10000: sub-accounts that may exist)
 *   --json              (for programs: once ready, one line of JSON, cliFacts.ts, instead of the banner; calls are not printed)
 * Flags take "--name value" or "--name=value". Runs until Ctrl-C, SIGTERM or SIGHUP (shutdown.ts).
 */
import { factsLine } from './cliFacts';
import { startEmulator } from './index';
import type { EmulatorCallRecord } from './state';
import { parseMode } from './mode';
import { DEFAULT_RECORD_BYTES, DEFAULT_RECORD_LIMIT, DEFAULT_SUB_ACCOUNT_LIMIT } from './records';
import { stopCleanly } from './shutdown';

const USAGE =
	'usage: emulator [--port N] [--https] [--latency MS] [--call-duration MS] [--mode strict|platform] [--record-limit N] [--record-bytes N] [--sub-account-limit N] [--json]';

function option(name: string, env: string): string | undefined {
	for (let index = 2; index < process.argv.length; index++) {
		const argument = process.argv[index];
		if (argument.startsWith(`--${name}=`)) return argument.slice(name.length + 3);
		if (argument === `--${name}`) return process.argv[index + 1];
	}
	return process.env[env];
}

function numberOption(name: string, env: string, fallback: number): number {
	const text = option(name, env);
	if (text === undefined) return fallback;
	const value = Number(text);
	if (!/^\d+$/.test(text) || !Number.isSafeInteger(value))
		throw new Error(`--${name} must be a whole number, got "${text}"\n${USAGE}`);
	return value;
}

function modeOption() {
	try {
		return parseMode(option('mode', 'EMULATOR_MODE') ?? 'platform');
	} catch (error) {
		throw new Error(`--${(error as Error).message}\n${USAGE}`);
	}
}

async function main() {
	if (process.argv.includes('--help') || process.argv.includes('-h')) {
		console.log(USAGE);
		return;
	}
	const json = process.argv.includes('--json');
	const emulator = await startEmulator({
		onCall: json ? undefined : (call) => console.log(heard(call)),
		port: numberOption('port', 'EMULATOR_PORT', 8883),
		https:
			process.argv.includes('--https') || /^(1|true|yes)$/i.test(process.env.EMULATOR_HTTPS ?? ''),
		latencyMs: numberOption('latency', 'EMULATOR_LATENCY_MS', 0),
		callDurationMs: numberOption('call-duration', 'EMULATOR_CALL_DURATION_MS', 5000),
		mode: modeOption(),
		recordLimit: numberOption('record-limit', 'EMULATOR_RECORD_LIMIT', DEFAULT_RECORD_LIMIT),
		recordBytes: numberOption('record-bytes', 'EMULATOR_RECORD_BYTES', DEFAULT_RECORD_BYTES),
		subAccountLimit: numberOption(
			'sub-account-limit',
			'EMULATOR_SUB_ACCOUNT_LIMIT',
			DEFAULT_SUB_ACCOUNT_LIMIT,
		),
	});
	// Before anything is printed: whoever waits for the banner may stop it right after.
	stopCleanly(() => emulator.close());
	if (json) {
		const { baseUrl, controlUrl, accountSid, authToken, appId, mode } = emulator;
		console.log(
			factsLine({ baseUrl, controlUrl, accountSid, authToken, appId, mode, pid: process.pid }),
		);
		return;
	}
	console.log(
		`Cloopen platform emulator is running (${emulator.mode} mode). In n8n, create "Cloopen API" credentials with:`,
	);
	// The credential dialog's fields, values in one column.
	const field = (label: string, value: string) =>
		console.log(`  ${`${label}:`.padEnd(15)} ${value}`);
	field('Server', 'Custom URL');
	field('Base URL', emulator.baseUrl);
	field('Account SID', emulator.accountSid);
	field('Auth Token', emulator.authToken);
	field('Default App ID', emulator.appId);
	if (emulator.baseUrl.startsWith('https'))
		field('Ignore SSL Issues', 'on (self-signed certificate)');
	console.log(
		`Each call is printed below with what the callee hears (also: GET ${emulator.controlUrl}/calls, fields.verifyCode).`,
	);
	console.log(
		'SMS templates: "1" with {1} {2}, "2" with no placeholders. Callee ending in 1: not answered, in 2: failed.',
	);
	console.log(
		`Control surface: ${emulator.controlUrl}/{state,requests,calls,messages,subaccounts,callbacks}.`,
	);
	console.log(`Ctrl-C (or kill ${process.pid}) stops it.`);
}

/** One line per call: to whom, and what the callee hears, as a phone on the desk would tell. */
function heard(call: EmulatorCallRecord): string {
	const to = `Call ${call.callSid} to ${call.to}`;
	if (call.kind === 'voiceVerify')
		return `${to}: reads out the code ${String(call.fields.verifyCode)}`;
	const text = call.fields.mediaTxt ?? call.fields.mediaName;
	return `${to}: plays a voice notification${text === undefined ? '' : ` (${String(text).slice(0, 80)})`}`;
}

main().catch((error: Error) => {
	console.error(error.message);
	process.exit(1);
});
