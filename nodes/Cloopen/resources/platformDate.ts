import type { IDataObject } from 'n8n-workflow';

/** The platform writes its times in China Standard Time (UTC+8), without saying so. */
const CHINA_OFFSET_MS = 8 * 3600 * 1000;

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
		if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
		return new Date(utc - CHINA_OFFSET_MS).toISOString();
	}
	return undefined;
}

/**
 * `dateCreated` (and any other of `keys`) in one form for every operation: ISO 8601 in UTC, as n8n's
 * dates are, with the platform's own text next to it as `dateCreatedRaw`. A value in no known form
 * stays only in `…Raw`, so a comparison never mixes two forms.
 */
export function withIsoDates(entry: IDataObject, keys: string[] = ['dateCreated']): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(entry)) {
		if (!keys.includes(key) || value === undefined || value === null || value === '') {
			out[key] = value;
			continue;
		}
		const iso = platformTimeToIso(value);
		if (iso !== undefined) out[key] = iso;
		out[`${key}Raw`] = value;
	}
	return out;
}
