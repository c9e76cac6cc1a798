import type { Body } from './codec';
import { fail, type CodeName } from './errors';

/**
 * Reads the fields of one request body strictly: a field the operation does not know is refused
 * before anything else (a misspelt or misplaced field is a bug in the client), and every value must
 * be a string.
 */
export class Fields {
	constructor(
		private readonly body: Body,
		known: readonly string[],
	) {
		const unknown = Object.keys(body).filter((key) => !known.includes(key));
		if (unknown.length > 0) fail('badParameter', `unknown field(s): ${unknown.join(', ')}`);
	}

	/** A plain string field; undefined when absent or empty. */
	text(name: string): string | undefined {
		const value = this.body[name];
		if (value === undefined) return undefined;
		if (typeof value !== 'string') return fail('badParameter', `${name} must be a string`);
		return value === '' ? undefined : value;
	}

	required(name: string, code: CodeName = 'badParameter'): string {
		return this.text(name) ?? fail(code, `${name} is required`);
	}

	/** The raw value, for the few fields that are not plain strings (datas, QueryCallState). */
	raw(name: string): unknown {
		return this.body[name];
	}

	integer(
		name: string,
		min: number,
		max: number,
		code: CodeName = 'badParameter',
	): number | undefined {
		const text = this.text(name);
		if (text === undefined) return undefined;
		if (!/^-?\d+$/.test(text) || Number(text) < min || Number(text) > max) {
			return fail(code, `${name} must be ${min} to ${max}`);
		}
		return Number(text);
	}
}

export const PHONE = /^\+?\d{3,20}(-\d{1,10})?$/;
export const MOBILE = /^\+?\d{5,20}$/;

export function checkPhone(name: string, value: string | undefined): void {
	if (value !== undefined && !PHONE.test(value)) fail('badNumber', `${name}: ${value}`);
}

/** "URL-conformant" (docs/platform.md#voice-verification): an absolute http(s) URL with a host and no spaces. */
export function checkUrl(name: string, value: string | undefined): void {
	if (value === undefined) return;
	let url: URL | undefined;
	try {
		url = new URL(value);
	} catch {
		url = undefined;
	}
	if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname || /\s/.test(value))
		fail('badParameter', `${name} is not a URL: ${value}`);
}

/** wav file names separated by ';' (docs/platform.md#voice-notification; a comma is taken for a wrong separator); `single` for welcomePrompt. */
export function checkWavList(name: string, value: string | undefined, single = false): void {
	if (value === undefined) return;
	const files = value.split(';');
	if ((single && files.length > 1) || files.some((file) => !/^[^\s;,]+\.wav$/i.test(file))) {
		fail(
			'badParameter',
			single ? `${name} must name one .wav file` : `${name} must list .wav files separated by ';'`,
		);
	}
}
