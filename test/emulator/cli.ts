/**
 * npm run emulator: the local stand-in for the Cloopen platform, for a real n8n or for curl.
 * Options: --port N, --https, --latency MS, --call-duration MS (or EMULATOR_PORT, …).
 */
import { startEmulator } from './index';

function option(name: string, env: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	if (index >= 0) return process.argv[index + 1] ?? 'true';
	return process.env[env];
}

async function main() {
	const emulator = await startEmulator({
		port: Number(option('port', 'EMULATOR_PORT') ?? 8883),
		https: process.argv.includes('--https') || process.env.EMULATOR_HTTPS === 'true',
		latencyMs: Number(option('latency', 'EMULATOR_LATENCY_MS') ?? 0),
		callDurationMs: Number(option('call-duration', 'EMULATOR_CALL_DURATION_MS') ?? 5000),
	});
	console.log('Cloopen platform emulator is running. In n8n, create "Cloopen API" credentials with:');
	console.log(`  Server:       Custom URL`);
	console.log(`  Base URL:     ${emulator.baseUrl}`);
	console.log(`  Account SID:  ${emulator.accountSid}`);
	console.log(`  Auth Token:   ${emulator.authToken}`);
	if (emulator.baseUrl.startsWith('https')) console.log('  Ignore SSL Issues: on (self-signed certificate)');
	console.log(`and use App ID ${emulator.appId} in the Cloopen node.`);
	console.log(`Control surface: ${emulator.controlUrl}/{state,requests,calls,messages,subaccounts,callbacks}. Ctrl-C stops it.`);
	const stop = () => {
		void emulator.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
