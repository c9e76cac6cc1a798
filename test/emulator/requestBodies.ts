import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/index';
import { signedRequest, statusCodeOf, type EmulatorReply, type SignedRequestOptions } from '../../dev/platformClient';

export type CallOptions = Omit<SignedRequestOptions, 'accountSid' | 'token'>;

/**
 * One emulator per test file (on its own free port, so files run in parallel), reset before each
 * test, closed after the file.
 */
export function useEmulator(options: EmulatorOptions = {}) {
	let emulator: RunningEmulator | undefined;
	beforeAll(async () => {
		emulator = await startEmulator(options);
	});
	beforeEach(() => emulator!.reset());
	afterAll(async () => {
		await emulator?.close();
	});
	const get = () => emulator!;
	/** A request signed with the main account's credentials. */
	const main = (call: CallOptions) => signedRequest(get().baseUrl, { accountSid: get().accountSid, token: get().authToken, ...call });
	/** A request signed with a sub-account's own credentials, under its own path. */
	const as = (account: { subAccountSid: string; subToken: string }, call: CallOptions) =>
		signedRequest(get().baseUrl, { accountSid: account.subAccountSid, token: account.subToken, ...call });
	const code = async (call: CallOptions) => statusCodeOf(await main(call));
	return { emulator: get, main, as, code };
}

/** A request body in JSON. */
export const json = (body: Record<string, unknown>) => JSON.stringify(body);

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A request body in XML: one element per field, escaped, plus raw extra XML. */
export const xml = (root: string, fields: Record<string, string>, extra = '') =>
	`<${root}>${Object.entries(fields)
		.map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`)
		.join('')}${extra}</${root}>`;

/** Every leaf of a JSON answer is a string (docs/platform.md#headers-and-body-formats: all values travel as strings). */
export function allStrings(value: unknown): boolean {
	if (Array.isArray(value)) return value.every(allStrings);
	if (typeof value === 'object' && value !== null) return Object.values(value).every(allStrings);
	return typeof value === 'string';
}

export const HEX32 = /^[0-9a-f]{32}$/;
export const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>';

export const codeOf = statusCodeOf;
export type { EmulatorReply };
