import type { IDataObject } from 'n8n-workflow';

import { platformTimeToIso } from '../../../shared/platform/chinaTime';

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
