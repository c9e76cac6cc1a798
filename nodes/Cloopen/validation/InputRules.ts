import { NodeOperationError, type INode } from 'n8n-workflow';

import {
	canonicalPhoneNumber,
	phoneNumberRule,
	type NumberKind,
} from '../../shared/platform/phoneNumbers';
import { absoluteHttpUrl } from '../../shared/urls';
import type { FieldLabels } from './fieldLabels';
import { rangeInWords, shownValue } from './valueInWords';

/** Whether free text may span lines (mediaTxt, userData, template data) or must be one line (ids, numbers, names). */
type TextKind = 'line' | 'multiline';

/**
 * What no body may carry: control characters (XML 1.0 cannot even escape most of them; a proxy or the
 * platform may cut the text at one), the non-characters U+FFFE/U+FFFF and halves of surrogate pairs.
 */
const NOT_TEXT =
	// eslint-disable-next-line no-control-regex
	/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LINE_BREAK_OR_TAB = /[\t\n\r]/;

/** A field by its parameter name, or one row of a list field (Template Data) by its 1-based number. */
export type Field = string | { name: string; row: number };

/** Until a form's labels are given, a field is named by its parameter name. */
const BY_NAME: FieldLabels = (name) => ({ label: name, name });

/**
 * Checks one field against one rule of the platform (docs/platform.md#endpoints, docs/platform.md#limits) before anything is sent.
 * Every failure names the field by the label the form shows (its parameter name in brackets, in the
 * description), the value it got and the rule it broke.
 */
export class InputRules {
	constructor(
		private readonly node: INode,
		private readonly itemIndex: number,
		private readonly labels: FieldLabels = BY_NAME,
	) {}

	/** The message fail() throws, for an answer that carries it instead. */
	message(field: Field, value: unknown, rule: string): string {
		const { label } = this.labels(typeof field === 'string' ? field : field.name);
		const named = typeof field === 'string' ? label : `${label} row ${field.row}`;
		return `${named} ${rule}, got ${shownValue(value)}`;
	}

	fail(field: Field, value: unknown, rule: string): never {
		const { label, name, within } = this.labels(typeof field === 'string' ? field : field.name);
		const row = typeof field === 'string' ? undefined : field.row;
		const place = [
			row === undefined ? `"${label}"` : `row ${row} of "${label}"`,
			name !== label ? `(${name})` : '',
			within ? `in ${within}` : '',
		]
			.filter(Boolean)
			.join(' ');
		throw new NodeOperationError(this.node, this.message(field, value, rule), {
			itemIndex: this.itemIndex,
			description: `The request was not sent: fix ${place} and run again.`,
		});
	}

	/** A required text field: trimmed, and never empty. */
	required(field: Field, value: unknown, kind: TextKind = 'line'): string {
		const text = this.text(field, value, kind);
		if (text === '') this.fail(field, value, 'is required and must not be empty');
		return text;
	}

	/**
	 * An optional text field: trimmed; undefined when empty (or when an expression gave null or
	 * nothing) so that it is left out of the body. Any other value, 0 included, is checked as given.
	 */
	optional(field: Field, value: unknown, kind: TextKind = 'line'): string | undefined {
		const text = this.text(field, value ?? '', kind);
		return text === '' ? undefined : text;
	}

	/** Your own data returned with the call result: text, a number or true/false, sent as text. */
	userData(field: Field, value: unknown): string | undefined {
		return this.optional(field, typeof value === 'boolean' ? String(value) : value, 'multiline');
	}

	/** A whole number in [min, max], sent as a string. Text must be plain digits ("0x10" and "1e1" are not). */
	integerInRange(field: Field, value: unknown, min: number, max: number): string {
		return this.whole(field, value, min, max);
	}

	/**
	 * A whole number in the range its field in the form allows (the one home of a field's bounds:
	 * its typeOptions), sent as a string; any safe integer for a field that declares none.
	 */
	wholeNumber(field: Field, value: unknown): string {
		const { range } = this.labels(typeof field === 'string' ? field : field.name);
		return this.whole(
			field,
			value,
			range?.min ?? Number.MIN_SAFE_INTEGER,
			range?.max ?? Number.MAX_SAFE_INTEGER,
		);
	}

	private whole(field: Field, value: unknown, min: number, max: number): string {
		const numeric =
			typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : value;
		if (
			typeof numeric !== 'number' ||
			!Number.isInteger(numeric) ||
			numeric < min ||
			numeric > max
		) {
			this.fail(field, value, `must be a whole number${rangeInWords(min, max)}`);
		}
		return String(numeric);
	}

	/** One of a fixed list of values. */
	oneOf(field: Field, value: unknown, allowed: string[]): string {
		const text = this.text(field, value);
		if (!allowed.includes(text)) this.fail(field, value, `must be one of ${allowed.join(', ')}`);
		return text;
	}

	/** 4 to 8 letters or digits (docs/platform.md#voice-verification). */
	verifyCode(field: Field, value: unknown): string {
		const text = this.required(field, value);
		if (!/^[A-Za-z0-9]{4,8}$/.test(text))
			this.fail(field, value, 'must be 4 to 8 letters or digits');
		return text;
	}

	/**
	 * The value for one template placeholder: text or a number, never empty. Text is sent as given
	 * (not trimmed): spaces may be part of the message.
	 */
	placeholderValue(field: Field, value: unknown): string {
		const checked = this.required(field, value, 'multiline');
		return typeof value === 'string' ? value : checked;
	}

	/** An optional phone number: absent, null or empty leaves it out; anything else (0 too) must be one. */
	optionalPhoneNumber(field: Field, value: unknown): string | undefined {
		if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
			return undefined;
		return this.phoneNumber(field, value);
	}

	/**
	 * A phone number in any spelling people type (phoneNumbers.ts), returned in its one written form,
	 * the form sent: every resource takes the same spellings and refuses in the same words. For SMS a
	 * landline is refused: an SMS cannot reach it.
	 */
	phoneNumber(field: Field, value: unknown, use: 'call' | 'sms' = 'call'): string {
		const text = this.required(field, value);
		const read = canonicalPhoneNumber(text);
		const rule = phoneNumberRule(text, read, use);
		return rule === undefined ? read.number! : this.fail(field, value, rule);
	}

	/**
	 * The same reading for an answer instead of a failure (One-Time Code answers a web form): the
	 * number in its one form, or the message fail() would throw.
	 */
	readPhoneNumber(
		field: Field,
		text: string,
		use: 'call' | 'sms' = 'call',
	): { number: string; kind: NumberKind } | { number?: undefined; refusal: string } {
		const read = canonicalPhoneNumber(text);
		const rule = phoneNumberRule(text, read, use);
		if (rule !== undefined) return { refusal: this.message(field, text, rule) };
		return read as { number: string; kind: NumberKind };
	}

	/**
	 * An absolute http(s) URL with a host (absoluteHttpUrl, checked as written), as respUrl must be
	 * "URL-conformant"; no spaces or backslashes either.
	 */
	url(field: Field, value: unknown): string | undefined {
		const text = this.optional(field, value);
		if (text === undefined) return undefined;
		if (!absoluteHttpUrl(text) || /[\s\\]/.test(text)) {
			this.fail(
				field,
				value,
				'must be an absolute http:// or https:// URL with a host, e.g. https://example.com/cloopen',
			);
		}
		return text;
	}

	/** One wav file name (welcomePrompt: docs/platform.md#voice-verification allows a single file). */
	wavFile(field: Field, value: unknown): string | undefined {
		const text = this.optional(field, value);
		if (text === undefined) return undefined;
		if (!/^[^\s;]+\.wav$/i.test(text))
			this.fail(field, value, "must be one .wav file name (e.g. welcome.wav), not a ';' list");
		return text;
	}

	/** wav file names separated by ';' (docs/platform.md#voice-verification, docs/platform.md#voice-notification). */
	wavFileList(field: Field, value: unknown, isRequired: boolean): string | undefined {
		const text = isRequired ? this.required(field, value) : this.optional(field, value);
		if (text === undefined) return undefined;
		const names = text.split(';').map((name) => name.trim());
		if (names.some((name) => !/^[^\s;]+\.wav$/i.test(name))) {
			this.fail(
				field,
				value,
				"must be .wav file names separated by ';' (e.g. welcome.wav;code.wav)",
			);
		}
		return names.join(';');
	}

	/**
	 * Text as the body will carry it: a string, or a finite number written out. true/false, objects,
	 * lists, null and nothing are refused rather than sent as "true", "[object Object]", "a,b", "null"
	 * or "".
	 */
	private text(field: Field, value: unknown, kind: TextKind = 'line'): string {
		let text: string;
		if (typeof value === 'string') text = value.trim();
		else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
		else if (typeof value === 'boolean') this.fail(field, value, 'must be text, not true/false');
		else if (Array.isArray(value)) this.fail(field, value, 'must be text, not a list');
		else if (typeof value === 'object' && value !== null)
			this.fail(field, value, 'must be text, not an object');
		else this.fail(field, value, 'must be text');
		if (NOT_TEXT.test(text))
			this.fail(field, value, 'must not contain control characters or invalid Unicode');
		if (kind === 'line' && LINE_BREAK_OR_TAB.test(text))
			this.fail(field, value, 'must be one line (no line breaks or tabs)');
		return text;
	}
}
