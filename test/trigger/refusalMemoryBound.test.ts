/**
 * What the trigger remembers about refusals and wrong secrets stays bounded whatever a sender
 * varies: addresses, triggers, kinds.
 */
import {
	MOST_SLOTS_REMEMBERED,
	refusedItem,
	slotsRemembered,
} from '../../nodes/CloopenTrigger/refusedOutput';
import {
	MOST_SENDERS_REMEMBERED,
	refusalAfterWrongSecret,
	sendersRemembered,
} from '../../nodes/CloopenTrigger/wrongSecretThrottle';
import { Refusal } from '../../nodes/shared/notifications/refusal';

const at = Date.parse('2026-11-27T12:00:00Z');

test('wrong secrets from ever new addresses to ever new triggers: at most MOST_SENDERS_REMEMBERED pairs', () => {
	const wrong = new Refusal(401, 'wrong secret', 'wrongSecret');
	for (let sender = 0; sender < MOST_SENDERS_REMEMBERED * 2; sender++)
		refusalAfterWrongSecret(`w${sender % 7}/node`, `2001:db8::${sender.toString(16)}`, at, wrong);
	expect(sendersRemembered()).toBe(MOST_SENDERS_REMEMBERED);
});

test('refusals from ever new addresses, listed entries and triggers: at most twice MOST_SLOTS_REMEMBERED slots', () => {
	const refusal = new Refusal(403, 'sender address not allowed', 'addressNotAllowed');
	let shown = 0;
	for (let sender = 0; sender < MOST_SLOTS_REMEMBERED * 3; sender++) {
		const item = refusedItem({
			refusal,
			scope: `s${sender % 5_000}/node`,
			senderAddress: `2001:db8::${sender.toString(16)}`,
			listedAs: sender % 2 === 0 ? `2001:db8::${sender.toString(16)}` : undefined,
			receivedAt: new Date(at),
			manual: false,
		});
		if (item) shown++;
	}
	expect(slotsRemembered()).toBeLessThanOrEqual(2 * MOST_SLOTS_REMEMBERED);
	expect(shown).toBeGreaterThan(0);
});
