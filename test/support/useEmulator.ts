import type { IDataObject } from 'n8n-workflow';

import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator';
import { emulatorCredentials } from '../../dev/emulatorCredentials';
import { signedRequest, statusCodeOf, type SignedRequestOptions } from '../../dev/platformClient';

export type CallOptions = Omit<SignedRequestOptions, 'accountSid' | 'token'>;

export interface EmulatorInTest {
	/** The running emulator, from the first beforeAll of the block on (its members are filled in then). */
	emulator: RunningEmulator;
	/** The Cloopen API credential for it (Custom URL server), with `changes` on top. */
	credentials(changes?: IDataObject): ReturnType<typeof emulatorCredentials>;
	/** A request signed with the main account's credentials. */
	main(call: CallOptions): ReturnType<typeof signedRequest>;
	/** A request signed with a sub-account's own credentials, under its own path. */
	as(
		account: { subAccountSid: string; subToken: string },
		call: CallOptions,
	): ReturnType<typeof signedRequest>;
	/** The statusCode of a request signed with the main account's credentials. */
	code(call: CallOptions): Promise<string | undefined>;
}

/**
 * One emulator for the enclosing describe block (or file): started on its own free port (so files run
 * in parallel) before its tests, closed after them and, unless `resetEachTest` is false, reset before
 * each test. A test's own set-up after the reset goes in a beforeEach declared after this call; it runs
 * after the reset.
 */
export function useEmulator(
	options: EmulatorOptions = {},
	{ resetEachTest = true } = {},
): EmulatorInTest {
	const emulator = {} as RunningEmulator;
	let started: RunningEmulator | undefined;
	beforeAll(async () => {
		started = await startEmulator(options);
		Object.assign(emulator, started);
	});
	if (resetEachTest) beforeEach(() => emulator.reset());
	afterAll(async () => {
		await started?.close();
	});
	const main = (call: CallOptions) =>
		signedRequest(emulator.baseUrl, {
			accountSid: emulator.accountSid,
			token: emulator.authToken,
			...call,
		});
	return {
		emulator,
		credentials: (changes) => emulatorCredentials(emulator, changes),
		main,
		as: (account, call) =>
			signedRequest(emulator.baseUrl, {
				accountSid: account.subAccountSid,
				token: account.subToken,
				...call,
			}),
		code: async (call) => statusCodeOf(await main(call)),
	};
}
