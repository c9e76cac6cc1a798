/**
 * The platform reads and writes every time as China Standard Time (UTC+8 all year, no daylight
 * saving) without saying so, whatever the time zone of the machine running n8n.
 */
const CHINA_STANDARD_TIME_OFFSET_MS = 8 * 60 * 60 * 1000;

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** yyyyMMddHHmmss in China Standard Time, as the signature's timestamp must be. */
export function platformTimestamp(at: Date): string {
	const shifted = new Date(at.getTime() + CHINA_STANDARD_TIME_OFFSET_MS);
	return (
		String(shifted.getUTCFullYear()) +
		twoDigits(shifted.getUTCMonth() + 1) +
		twoDigits(shifted.getUTCDate()) +
		twoDigits(shifted.getUTCHours()) +
		twoDigits(shifted.getUTCMinutes()) +
		twoDigits(shifted.getUTCSeconds())
	);
}

/**
 * The forms the platform uses: `yyyy-MM-dd HH:mm:ss` (calls, accounts, sub-accounts) and
 * `yyyyMMddHHmmss` (SMS); a `T` between date and time and fractions of a second are read too.
 */
const FORMS = [
	/^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3})\d*)?$/,
	/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/,
];

/** A platform time as ISO 8601 in UTC (`2026-11-23T06:33:07.000Z`), or undefined if it is none of its forms. */
export function platformTimeToIso(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	for (const form of FORMS) {
		const match = form.exec(value.trim());
		if (!match) continue;
		const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
		const millis = Number((match[7] ?? '0').padEnd(3, '0'));
		const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
		const date = new Date(utc);
		// 2026-02-30 would roll over into March: not a time the platform could have meant.
		if (
			date.getUTCMonth() !== month - 1 ||
			date.getUTCDate() !== day ||
			hour > 23 ||
			minute > 59 ||
			second > 59
		)
			return undefined;
		return new Date(utc - CHINA_STANDARD_TIME_OFFSET_MS).toISOString();
	}
	return undefined;
}
