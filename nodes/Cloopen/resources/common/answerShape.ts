import type { IDataObject } from 'n8n-workflow';

import type { CloopenResponse } from '../../../shared/transport/request';

/** A nested response element (e.g. VoiceVerify) as a flat object; absent or empty gives {}. */
export function nestedObject(response: CloopenResponse, ...keys: string[]): IDataObject {
	for (const key of keys) {
		const value = response[key];
		if (typeof value === 'object' && value !== null && !Array.isArray(value))
			return value as IDataObject;
	}
	return {};
}

/** A response element that is a list (SubAccount): one element in XML may arrive as an object. */
export function listOf(response: CloopenResponse, key: string): IDataObject[] {
	const value = response[key];
	if (Array.isArray(value)) return value as IDataObject[];
	if (typeof value === 'object' && value !== null) return [value as IDataObject];
	return [];
}

/** Leaves out optional fields the user left empty, so the body carries only what was given. */
export function withoutEmpty<T extends Record<string, unknown>>(
	body: T,
): { [K in keyof T]: Exclude<T[K], undefined> } {
	return Object.fromEntries(
		Object.entries(body).filter(([, value]) => value !== undefined),
	) as never;
}
