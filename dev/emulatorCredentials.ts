import type { RunningEmulator } from '../emulator';

/** The Cloopen API credential's fields for the emulator, as a user fills them in (Custom URL server). */
export function emulatorCredentials(emulator: RunningEmulator, changes: Record<string, unknown> = {}): Record<string, unknown> {
	return {
		accountSid: emulator.accountSid,
		authToken: emulator.authToken,
		server: 'custom',
		baseUrl: emulator.baseUrl,
		ignoreSslIssues: false,
		...changes,
	};
}
