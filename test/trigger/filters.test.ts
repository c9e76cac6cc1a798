import {
	eventFilterValue,
	filteredOutBecause,
	filterList,
	type TriggerFilters,
} from '../../nodes/CloopenTrigger/filters';
import {
	normaliseNotification,
	type Notification,
} from '../../nodes/shared/notifications/normalise';

const notification = (fields: Record<string, string>): Notification =>
	normaliseNotification(new Map(Object.entries(fields)), new Date(0));

const voiceCode = (state: string) => notification({ action: 'VoiceCode', callSid: 'a1', state });
const sellingCall = (state: string) =>
	notification({ action: 'SellingCall', callSid: 'b2', state });
const smsArrived = notification({ action: 'SMSArrived', status: '0' });
const other = notification({ action: 'CallAuth' });

const passes = (n: Notification, filters: TriggerFilters) =>
	filteredOutBecause(n, filters) === undefined;

describe('filters', () => {
	test('event filter values', () => {
		expect(eventFilterValue(voiceCode('0'))).toBe('voiceVerification');
		expect(eventFilterValue(sellingCall('0'))).toBe('voiceNotification');
		expect(eventFilterValue(smsArrived)).toBe('SMSArrived');
		expect(eventFilterValue(other)).toBe('other');
	});

	test('"*" and an empty selection let everything through', () => {
		for (const filters of [
			{ events: ['*'], results: ['*'] },
			{ events: [], results: [] },
		]) {
			for (const n of [
				voiceCode('0'),
				voiceCode('1'),
				voiceCode('2'),
				voiceCode('9'),
				sellingCall('1'),
				smsArrived,
				other,
			]) {
				expect(passes(n, filters)).toBe(true);
			}
		}
	});

	test('events: only the selected ones', () => {
		const filters = { events: ['voiceVerification', 'SMSArrived'], results: ['*'] };
		expect(passes(voiceCode('0'), filters)).toBe(true);
		expect(passes(smsArrived, filters)).toBe(true);
		expect(filteredOutBecause(sellingCall('0'), filters)).toBe(
			'event voiceNotification is not selected',
		);
		expect(passes(other, filters)).toBe(false);
		expect(passes(other, { events: ['other'], results: ['*'] })).toBe(true);
	});

	test('results: failed and not answered only (the alerting case)', () => {
		const filters = { events: ['voiceVerification'], results: ['failed', 'notAnswered'] };
		expect(passes(voiceCode('1'), filters)).toBe(true);
		expect(passes(voiceCode('2'), filters)).toBe(true);
		expect(filteredOutBecause(voiceCode('0'), filters)).toBe(
			'call result answered is not selected',
		);
		// A state the platform does not document passes only "any result".
		expect(filteredOutBecause(voiceCode('9'), filters)).toBe('call result unknown is not selected');
		expect(passes(sellingCall('2'), filters)).toBe(false);
	});

	test('results: answered only', () => {
		const filters = { events: ['*'], results: ['answered'] };
		expect(passes(voiceCode('0'), filters)).toBe(true);
		expect(passes(sellingCall('0'), filters)).toBe(true);
		expect(passes(sellingCall('1'), filters)).toBe(false);
	});

	test('the result filter does not judge notifications without a call state', () => {
		expect(passes(smsArrived, { events: ['*'], results: ['failed'] })).toBe(true);
	});

	test('filter lists from expressions', () => {
		expect(filterList(['a', 1, 'b'])).toEqual(['a', 'b']);
		expect(filterList('failed, notAnswered')).toEqual(['failed', 'notAnswered']);
		expect(filterList(undefined)).toEqual([]);
	});
});
