import { notificationBody } from '../../../emulator';

export interface BurstResult {
	/** how many notifications were answered 200 with the platform's acknowledgement */
	acknowledged: number;
	/** answers other than that, or connection errors, one line each */
	refused: string[];
	/** from the first request sent to the last answer received */
	durationMs: number;
	/** each notification's time from sending to its answer, in the order the answers came */
	latenciesMs: number[];
}

/** The callee number of notification `index` of a burst: unique, so every alert SMS can be traced back. */
export const burstNumber = (burst: number, index: number) =>
	`139${String(burst).padStart(2, '0')}${String(index).padStart(6, '0')}`;

/** The callSid of notification `index` of a burst: unique, so every execution can be traced back. */
export const burstCallSid = (burst: number, index: number) =>
	`${String(burst).padStart(4, '0')}${String(index).padStart(28, '0')}`;

/**
 * Posts `count` call result notifications for failed voice codes (each with its own callSid and number)
 * to `url` as the platform does (text/plain XML), `parallel` at a time, and counts the acknowledgements.
 * Several URLs (webhook processes behind a load balancer) take the notifications in turn.
 * `midway` runs once half of them have been answered (e.g. to stop a worker in the middle).
 */
export async function postNotificationBurst(options: {
	url: string | string[];
	burst: number;
	count: number;
	parallel: number;
	acknowledgement: string;
	midway?: () => void;
	/** how long one request may wait for its answer (default: as long as it takes) */
	timeoutMs?: number;
	/**
	 * The calls notification `index` reports, e.g. calls placed on the emulator so that Verify With
	 * Platform finds them (default: made up, burstCallSid and burstNumber)
	 */
	calls?: Array<{ callSid: string; to: string }>;
}): Promise<BurstResult> {
	const { url, burst, count, parallel, acknowledgement, midway, timeoutMs, calls } = options;
	const urls = [url].flat();
	const refused: string[] = [];
	const latenciesMs: number[] = [];
	let acknowledged = 0;
	let answered = 0;
	let next = 0;
	const started = Date.now();
	const postOne = async (index: number) => {
		const callSid = calls?.[index]?.callSid ?? burstCallSid(burst, index);
		const body = notificationBody({
			kind: 'voiceVerify',
			to: calls?.[index]?.to ?? burstNumber(burst, index),
			callSid,
			result: '2',
			duration: 0,
		});
		const sent = Date.now();
		try {
			const response = await fetch(urls[index % urls.length], {
				method: 'POST',
				headers: { 'content-type': 'text/plain;charset=utf-8' },
				body,
				signal: timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs),
			});
			const text = await response.text();
			if (response.status === 200 && text === acknowledgement) acknowledged += 1;
			else refused.push(`${index}: HTTP ${response.status} ${text.slice(0, 120)}`);
		} catch (error) {
			refused.push(`${index}: ${(error as Error).message}`);
		}
		latenciesMs.push(Date.now() - sent);
		answered += 1;
		if (answered === Math.floor(count / 2)) midway?.();
	};
	const lanes = Array.from({ length: parallel }, async () => {
		while (next < count) await postOne(next++);
	});
	await Promise.all(lanes);
	return { acknowledged, refused, durationMs: Date.now() - started, latenciesMs };
}
