import { platformTimeToIso } from '../../nodes/shared/platform/chinaTime';
import { withIsoDates } from '../../nodes/Cloopen/resources/common/platformDate';

describe('platform times as ISO 8601', () => {
	it.each([
		['20261123143307', '2026-11-23T06:33:07.000Z'],
		['2026-11-23 14:33:07', '2026-11-23T06:33:07.000Z'],
		['2026-11-23T14:33:07', '2026-11-23T06:33:07.000Z'],
		['2026-11-23 14:33:07.5', '2026-11-23T06:33:07.500Z'],
		['2026-01-01 03:00:00', '2025-12-31T19:00:00.000Z'],
		[' 2026-11-23 14:33:07 ', '2026-11-23T06:33:07.000Z'],
	])('%j (China Standard Time) is %s', (raw, iso) => {
		expect(platformTimeToIso(raw)).toBe(iso);
	});

	it.each([
		['2026-02-30 10:00:00'],
		['20261332000000'],
		['2026-11-23 24:00:00'],
		['yesterday'],
		[''],
		['1700000000'],
	])('%j is not read as a time', (raw) => expect(platformTimeToIso(raw)).toBeUndefined());

	it('the SMS form and the call form of the same moment compare equal', () => {
		expect(platformTimeToIso('20261123143307')).toBe(platformTimeToIso('2026-11-23 14:33:07'));
	});

	it("keeps the platform's text next to the ISO form, in place", () => {
		expect(
			Object.entries(withIsoDates({ callSid: 'a', dateCreated: '20261123143307', to: '1' })),
		).toEqual([
			['callSid', 'a'],
			['dateCreated', '2026-11-23T06:33:07.000Z'],
			['dateCreatedRaw', '20261123143307'],
			['to', '1'],
		]);
	});

	it('an unreadable time is kept only as the raw text; a missing one stays missing', () => {
		expect(withIsoDates({ dateCreated: 'soon' })).toEqual({ dateCreatedRaw: 'soon' });
		expect(withIsoDates({ callSid: 'a' })).toEqual({ callSid: 'a' });
		expect(
			withIsoDates({ dateCreated: '2026-11-01 00:00:00', dateUpdated: '20261101000000' }, [
				'dateCreated',
				'dateUpdated',
			]),
		).toEqual({
			dateCreated: '2026-10-31T16:00:00.000Z',
			dateCreatedRaw: '2026-11-01 00:00:00',
			dateUpdated: '2026-10-31T16:00:00.000Z',
			dateUpdatedRaw: '20261101000000',
		});
	});
});
