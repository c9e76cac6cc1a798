import type { Body } from './codec';
import { fail, type CodeName } from './errors';

/**
 * Reads the fields of one request body strictly: unknown fields are refused (a misspelt or
 * misplaced field is a bug in the client), and every value must be a string.
 */
export class Fields {
	private readonly used = new Set<string>();

	constructor(private readonly body: Body) {}

	/** A plain string field; undefined when absent or empty. */
	text(name: string): string | undefined {
		this.used.add(name);
		const value = this.body[name];
		if (value === undefined || value === null) return undefined;
		if (typeof value !== 'string') return fail('badParameter', `${name} must be a string`);
		return value === '' ? undefined : value;
	}

	required(name: string, code: CodeName = 'badParameter'): string {
		return this.text(name) ?? fail(code, `${name} is required`);
	}

	/** The raw value, for the few fields that are not plain strings (datas, QueryCallState). */
	raw(name: string): unknown {
		this.used.add(name);
		return this.body[name];
	}

	integer(name: string, min: number, max: number, code: CodeName = 'badParameter'): number | undefined {
		const text = this.text(name);
		if (text === undefined) return undefined;
		if (!/^-?\d+$/.test(text) || Number(text) < min || Number(text) > max) {
			return fail(code, `${name} must be ${min} to ${max}`);
		}
		return Number(text);
	}

	/** Call after reading: anything the operation does not know is refused. */
	noOthers(): void {
		const unknown = Object.keys(this.body).filter((key) => !this.used.has(key));
		if (unknown.length > 0) fail('badParameter', `unknown field(s): ${unknown.join(', ')}`);
	}
}

export const PHONE = /^\+?\d{3,20}(-\d{1,10})?$/;
export const MOBILE = /^\+?\d{5,20}$/;

export function checkPhone(name: string, value: string | undefined): void {
	if (value !== undefined && !PHONE.test(value)) fail('badNumber', `${name}: ${value}`);
}

/** "URL-conformant" (spec 4.1, 4.3): an absolute http(s) URL with a host and no spaces. */
export function checkUrl(name: string, value: string | undefined): void {
	if (value === undefined) return;
	let url: URL | undefined;
	try {
		url = new URL(value);
	} catch {
		url = undefined;
	}
	if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname || /\s/.test(value)) fail('badParameter', `${name} is not a URL: ${value}`);
}

/** wav file names separated by ';' (spec 4.2, 4.3); `single` for welcomePrompt, one file. */
export function checkWavList(name: string, value: string | undefined, single = false): void {
	if (value === undefined) return;
	const files = value.split(';');
	if ((single && files.length > 1) || files.some((file) => !/^[^\s;]+\.wav$/i.test(file))) {
		fail('badParameter', single ? `${name} must name one .wav file` : `${name} must list .wav files separated by ';'`);
	}
}
