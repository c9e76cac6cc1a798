import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import type { RunningEmulator } from '../emulator';

/** What the credential needs of a platform at a custom URL: the emulator, its process, or a test's own server. */
export type CustomPlatform = Pick<RunningEmulator, 'accountSid' | 'authToken' | 'baseUrl'>;

/** The Cloopen API credential's fields for the emulator (or another platform at a custom URL), as a user fills them in (Custom URL server). */
export function emulatorCredentials(
	emulator: CustomPlatform,
	changes: IDataObject = {},
): ICredentialDataDecryptedObject {
	return {
		accountSid: emulator.accountSid,
		authToken: emulator.authToken,
		server: 'custom',
		baseUrl: emulator.baseUrl,
		ignoreSslIssues: false,
		otherCountriesAllowed: '',
		premiumPrefixesAllowed: '',
		...changes,
	};
}
