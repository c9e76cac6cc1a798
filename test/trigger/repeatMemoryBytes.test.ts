/**
 * The repeat memory is bounded by bytes, for all triggers together, not by a number of triggers: a
 * trigger with a Secret or Allowed IP Addresses (secured) is never made to forget by traffic it
 * refused or by other triggers, however many there are and however much they hear. Its own file:
 * the memory lives as long as the module, and this file fills it.
 */
import type { IDataObject } from 'n8n-workflow';

import { CloopenTrigger } from '../../nodes/CloopenTrigger/CloopenTrigger.node';
import { triggerScope } from '../../nodes/CloopenTrigger/perTrigger';
import {
	claimNotification,
	ENTRY_BYTES,
	MAX_MEMORY_BYTES,
	MAX_REMEMBERED,
	rememberedBytes,
	rememberedCount,
} from '../../nodes/CloopenTrigger/repeats';
import { runWebhook } from '../../dev/engine';
import { voiceCodeXml } from './fixtures';
import { WRONG_SECRETS_ALLOWED } from '../../nodes/CloopenTrigger/wrongSecretThrottle';

const NODE_ID = 'harness-node-0';
const SECRET = 'a-long-secret-for-the-tests';
const SECURED: IDataObject = { events: ['*'], results: ['*'], options: {}, secret: SECRET };

async function deliver(workflowId: string, body: string, secret: string) {
	const result = await runWebhook(
		CloopenTrigger,
		SECURED,
		{ headers: { 'content-type': 'text/plain' }, rawBody: body, query: { secret } as never },
		{ workflowId },
	);
	return { status: result.responseStatus, started: result.workflowData !== undefined };
}

/**
 * Accepts `count` different notifications on a trigger through the memory the trigger uses; the
 * keys are 24 characters, as repeatKey's (test/trigger/repeats.test.ts), made without hashing.
 */
async function fill(scope: string, count: number, secured: boolean) {
	const now = Date.now();
	for (let index = 0; index < count; index++) {
		const claim = await claimNotification(
			scope,
			`${scope}:${index}`.padStart(24, '-'),
			now,
			3_600_000,
			secured,
		);
		if (!claim.repeat) claim.accept();
	}
}

/** Triggers that, full, hold more than the bound together. */
const FULL_TRIGGERS_OVER_THE_BOUND =
	Math.ceil(MAX_MEMORY_BYTES / (MAX_REMEMBERED * ENTRY_BYTES)) + 2;

it('refused traffic and any number of other triggers, each full, do not make a secured trigger forget; all memories together stay under the byte bound', async () => {
	const genuine = voiceCodeXml({ callSid: 'b0'.repeat(16), state: '2' });
	expect(await deliver('secured', genuine, SECRET)).toEqual({ status: 200, started: true });

	// Traffic the secured trigger refuses: a wrong secret (429 once the address made a few), and a body it cannot read.
	for (let post = 0; post < 200; post++)
		expect(
			(await deliver('secured', voiceCodeXml({ callSid: `${post}`.padStart(32, 'f') }), 'guess'))
				.status,
		).toBe(post < WRONG_SECRETS_ALLOWED ? 401 : 429);
	expect((await deliver('secured', '<Request>', SECRET)).status).toBe(400);

	// Other triggers, open ones, each hearing as much as a trigger may remember.
	const open = Array.from({ length: FULL_TRIGGERS_OVER_THE_BOUND }, (_, index) =>
		triggerScope(`open-${index}`, NODE_ID),
	);
	let highest = 0;
	for (const scope of open) {
		await fill(scope, MAX_REMEMBERED, false);
		highest = Math.max(highest, rememberedBytes());
	}
	expect(highest).toBeLessThanOrEqual(MAX_MEMORY_BYTES);
	// The bound was reached: the open trigger heard from longest ago was forgotten, the last is whole.
	expect(rememberedCount(open[0])).toBe(0);
	expect(rememberedCount(open[open.length - 1])).toBe(MAX_REMEMBERED);

	// The platform resends the genuine notification: still a repeat.
	expect(await deliver('secured', genuine, SECRET)).toEqual({ status: 200, started: false });
	expect(rememberedCount(triggerScope('secured', NODE_ID))).toBe(1);
});

it('secured triggers alone beyond the bound: none makes another forget; the one growing forgets its own oldest, and the total stays under the bound', async () => {
	const secured = Array.from({ length: FULL_TRIGGERS_OVER_THE_BOUND }, (_, index) =>
		triggerScope(`secured-${index}`, NODE_ID),
	);
	let highest = 0;
	for (const scope of secured) {
		await fill(scope, MAX_REMEMBERED, true);
		highest = Math.max(highest, rememberedBytes());
	}
	expect(highest).toBeLessThanOrEqual(MAX_MEMORY_BYTES);
	const counts = secured.map(rememberedCount);
	// The first ones, full when the bound was reached, keep everything.
	expect(counts.slice(0, 5)).toEqual(Array(5).fill(MAX_REMEMBERED));
	expect(counts[counts.length - 1]).toBeLessThan(MAX_REMEMBERED);
	// The earlier secured trigger of the first test kept its notification too.
	expect(rememberedCount(triggerScope('secured', NODE_ID))).toBe(1);
});
