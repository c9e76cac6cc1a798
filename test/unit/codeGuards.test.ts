import {
	destinationOf,
	type DestinationPolicy,
} from '../../nodes/Cloopen/resources/oneTimeCode/rules/destinations';
import { withCodeHidden } from '../../nodes/Cloopen/resources/oneTimeCode/rules/hideCode';
import { maskNumber } from '../../nodes/Cloopen/resources/oneTimeCode/rules/maskNumber';
import { allowSend } from '../../nodes/Cloopen/resources/oneTimeCode/rules/sendLimits';

/** Send Code's guards: the destination allow-list, the send limits per number, and what refusals show. */
const DEFAULT: DestinationPolicy = { allowed: ['chinaMobile'], countryCodes: [] };

describe('destination allow-list', () => {
	it.each(['13800000000', '19912345678', '14700000000'])(
		'by default a mainland China mobile number (%s) may get a code by voice and SMS',
		(number) => {
			expect(destinationOf(number, 'voice', DEFAULT)).toEqual({
				allowed: true,
				kind: 'chinaMobile',
			});
			expect(destinationOf(number, 'sms', DEFAULT)).toEqual({ allowed: true, kind: 'chinaMobile' });
		},
	);

	it.each([
		['a landline', '01012345678', 'destination allow-list', 'a mainland China landline'],
		['a landline with extension', '075512345678-12', 'destination allow-list', 'landline'],
		['a Hong Kong number', '+85291234567', 'destination allow-list', 'outside mainland China'],
		['a premium-rate international number', '+882123456789', 'destination allow-list', 'outside'],
		['+86 in front', '+8613800000000', 'number form', 'without +86'],
		['0086 in front', '008613800000000', 'number form', 'without +86'],
		['86 in front', '8613800000000', 'number form', 'form'],
		['00 for +', '0085291234567', 'number form', 'form'],
		['a service number', '95588', 'number form', 'form'],
		['a 400 number', '4001234567', 'number form', 'form'],
		['12 digits', '138000000001', 'number form', 'form'],
	])('by default refuses %s, naming the rule', (_title, number, rule, words) => {
		const destination = destinationOf(number, 'voice', DEFAULT);
		expect(destination).toMatchObject({ allowed: false, rule });
		if (destination.allowed) return;
		expect(destination.reason).toContain(words);
		expect(destination.reason).not.toContain(number);
		expect(destination.reason).toContain(maskNumber(number));
	});

	it('names a placeholder left in To as it is, so the user sees what to replace', () => {
		expect(destinationOf('YOUR_MOBILE_NUMBER', 'voice', DEFAULT)).toMatchObject({
			allowed: false,
			rule: 'number form',
			reason: expect.stringMatching(/^YOUR_MOBILE_NUMBER is not written in the form/),
		});
	});

	it('lets landlines in when chosen, by voice only', () => {
		const policy: DestinationPolicy = {
			allowed: ['chinaMobile', 'chinaLandline'],
			countryCodes: [],
		};
		expect(destinationOf('01012345678-123', 'voice', policy)).toEqual({
			allowed: true,
			kind: 'chinaLandline',
		});
		expect(destinationOf('01012345678', 'sms', policy)).toMatchObject({
			allowed: false,
			rule: 'SMS to mobile numbers only',
		});
	});

	it('lets other countries in only by the calling codes listed', () => {
		const policy: DestinationPolicy = {
			allowed: ['chinaMobile', 'international'],
			countryCodes: ['852', '853'],
		};
		expect(destinationOf('+85291234567', 'sms', policy)).toEqual({
			allowed: true,
			kind: 'international',
		});
		expect(destinationOf('+85361234567', 'voice', policy).allowed).toBe(true);
		const refused = destinationOf('+4420712345678', 'voice', policy);
		expect(refused).toMatchObject({ allowed: false, rule: 'destination allow-list' });
		if (!refused.allowed) expect(refused.reason).toContain('+852, +853');
	});

	it('refuses mainland mobile numbers too when they are not chosen', () => {
		const hongKongOnly: DestinationPolicy = { allowed: ['international'], countryCodes: ['852'] };
		expect(destinationOf('13800000000', 'sms', hongKongOnly)).toMatchObject({
			allowed: false,
			rule: 'destination allow-list',
		});
	});
});

describe('send limits per number', () => {
	const NOW = Date.parse('2026-05-01T10:00:00.000Z');
	const limits = { maxPerWindow: 3, windowMinutes: 60, cooldownSeconds: 60 };
	const ago = (seconds: number) => NOW - seconds * 1000;

	it('a first send is allowed and recorded', () => {
		expect(allowSend('13800000000', [], limits, NOW)).toEqual({
			allowed: true,
			recentSends: [NOW],
		});
	});

	it('refuses within the cooldown, saying when to try again', () => {
		const verdict = allowSend('13800000000', [ago(20)], limits, NOW);
		expect(verdict).toEqual({
			allowed: false,
			rule: 'resend cooldown',
			reason: expect.stringContaining('138****0000 20 s ago'),
			retryAfterSeconds: 40,
		});
		expect(allowSend('13800000000', [ago(60)], limits, NOW).allowed).toBe(true);
	});

	it('refuses the code after the maximum within the window, until the oldest leaves it', () => {
		const verdict = allowSend('13800000000', [ago(3000), ago(2000), ago(1000)], limits, NOW);
		expect(verdict).toEqual({
			allowed: false,
			rule: 'send limit per number',
			reason: expect.stringContaining('got 3 codes in the last 60 minutes'),
			retryAfterSeconds: 600,
		});
		// Sends older than the window do not count, and are dropped from the record.
		const later = allowSend('13800000000', [ago(4000), ago(2000), ago(1000)], limits, NOW);
		expect(later).toEqual({
			allowed: true,
			recentSends: [ago(2000), ago(1000), NOW],
		});
	});

	it('over a day of requests every 61 s, no hour holds more than the maximum, and the record stays that small', () => {
		const five = { maxPerWindow: 5, windowMinutes: 60, cooldownSeconds: 60 };
		let stored: number[] = [];
		const sent: number[] = [];
		for (let time = NOW; time < NOW + 86_400_000; time += 61_000) {
			const verdict = allowSend('13800000000', stored, five, time);
			if (!verdict.allowed) continue;
			sent.push(time);
			stored = verdict.recentSends;
			expect(stored.length).toBeLessThanOrEqual(5);
		}
		for (const start of sent)
			expect(
				sent.filter((time) => time >= start && time < start + 3_600_000).length,
			).toBeLessThanOrEqual(5);
		expect(sent.length).toBe(120);
	});
});

describe('what refusals and errors show', () => {
	it.each([
		['13800000000', '138****0000'],
		['+85291234567', '+852****4567'],
		['01012345678-123', '010********-123'],
		['0101234567', '010***4567'],
		['95588', '9**88'],
		['1234', '****'],
		['tel:13800000000', 'tel:138****0000'],
		['YOUR_MOBILE_NUMBER', 'YOUR_MOBILE_NUMBER'],
	])('%s is shown as %s', (number, masked) => {
		expect(maskNumber(number)).toBe(masked);
	});

	it('hides the code in an error, its context and its cause, leaving other numbers whole', () => {
		const cause = new Error('upstream said 4821');
		const error = Object.assign(
			new Error('Cloopen refused: verifyCode 4821 invalid [statusCode 000000]'),
			{
				description: 'statusMsg: code=4821; ref 48210',
				context: { statusMsg: 'bad 4821', nested: { list: ['4821', 'x'] } },
				cause,
			},
		);
		withCodeHidden(error, '4821');
		const text = JSON.stringify({
			message: error.message,
			description: error.description,
			context: error.context,
			cause: cause.message,
			stack: error.stack,
		});
		expect(text).not.toMatch(/(?<![0-9])4821(?![0-9])/);
		expect(error.message).toContain('[statusCode 000000]');
		expect(error.description).toContain('ref 48210');
		expect(error.message).toBe('Cloopen refused: verifyCode *** invalid [statusCode 000000]');
	});

	it('hides a code with letters in any casing', () => {
		const error = new Error('echo: k7px2m / K7PX2M');
		withCodeHidden(error, 'K7PX2M');
		expect(error.message).toBe('echo: *** / ***');
	});
});
