/**
 * Calls the platform knows, for notifications that Verify With Platform checks: voice codes placed
 * on the emulator through its API, signed as the platform requires, each to a number ending in 2,
 * which the emulator ends as failed (docs/platform.md, the callee-number rule of emulator/README.md):
 * the result the bench's notifications report. Started with a call duration of 0, the emulator has
 * ended them by the time they are notified.
 */
import { signedRequest } from '../dev/platformClient';
import type { PlatformTarget } from './emulatorProcess';

export interface PlacedCall {
	callSid: string;
	to: string;
}

/** Places `count` failed voice codes, `parallel` at a time; `numberOf(index)` is unique per call. */
export async function placeFailedCalls(
	platform: PlatformTarget,
	count: number,
	parallel: number,
	numberOf: (index: number) => string,
): Promise<PlacedCall[]> {
	const placed: PlacedCall[] = new Array<PlacedCall>(count);
	let next = 0;
	const placeOne = async (index: number) => {
		const to = `${numberOf(index)}2`;
		const reply = await signedRequest(platform.baseUrl, {
			accountSid: platform.accountSid,
			token: platform.authToken,
			path: 'Calls/VoiceVerify',
			body: JSON.stringify({ appId: platform.appId, to, verifyCode: '2468' }),
		});
		const callSid = reply.json?.VoiceVerify?.callSid as string | undefined;
		if (reply.json?.statusCode !== '000000' || !callSid)
			throw new Error(`placing a voice code to ${to} failed: ${reply.text.slice(0, 200)}`);
		placed[index] = { callSid, to };
	};
	const lanes = Array.from({ length: Math.min(parallel, count) }, async () => {
		while (next < count) await placeOne(next++);
	});
	await Promise.all(lanes);
	return placed;
}
