import type { IDataObject } from 'n8n-workflow';

/**
 * Voice codes to many numbers, the shape the concurrency and stop-on-failure tests send: item i calls
 * 1380000iiii, so a request's body tells which item it came from, and one item may carry a code the
 * node must refuse before sending. `settings` are the run's settings, in Options.
 */
export const sendCodeToEachItem = (settings: IDataObject = {}) => ({
	resource: 'voiceVerification',
	operation: 'sendCode',
	appId: 'app',
	to: '={{ $json.to }}',
	verifyCode: '={{ $json.code }}',
	options: settings,
});

export const numberOfItem = (i: number) => `1380000${String(i).padStart(4, '0')}`;

/** `count` items; item `invalid`, if given, carries a code the node refuses ('x'). */
export const voiceCodeItems = (count: number, invalid?: number) =>
	Array.from({ length: count }, (_, i) => ({
		to: numberOfItem(i),
		code: i === invalid ? 'x' : '1234',
	}));

/** The item a request was sent for, read from the number in its JSON body. */
export const itemOfBody = (body: string) => Number(String(JSON.parse(body).to).slice(-4));
