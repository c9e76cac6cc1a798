import { NodeOperationError, type INode } from 'n8n-workflow';

/** Longest value an error repeats in full; a list of 10,000 numbers would drown the message. */
const SHOWN_LENGTH = 120;

/**
 * The value as an error shows it: the value of a secret in a URL (a Cloopen Trigger's ?secret=…
 * in Result URL) replaced by ***, and a long value cut with its length given.
 */
function shownValue(value: unknown): string {
	if (typeof value !== 'string') return JSON.stringify(value);
	const masked = value.replace(/([?&](?:secret|token|password|pwd)=)[^&#\s]*/gi, '$1***');
	const cut = masked.length > SHOWN_LENGTH ? `${masked.slice(0, SHOWN_LENGTH)}… (${masked.length} characters)` : masked;
	return `"${cut}"`;
}

/**
 * Checks one field against one rule of the spec (sections 4 and 8) before anything is sent.
 * Every failure names the field, the value it got and the rule it broke.
 */
export class InputRules {
	constructor(
		private readonly node: INode,
		private readonly itemIndex: number,
	) {}

	fail(field: string, value: unknown, rule: string): never {
		throw new NodeOperationError(this.node, `${field} ${rule}, got ${shownValue(value)}`, {
			itemIndex: this.itemIndex,
			description: `The request was not sent: fix "${field}" and run again.`,
		});
	}

	/** A required text field: trimmed, and never empty. */
	required(field: string, value: unknown): string {
		const text = this.text(field, value);
		if (text === '') this.fail(field, value, 'is required and must not be empty');
		return text;
	}

	/** An optional text field: trimmed; undefined when empty so that it is left out of the body. */
	optional(field: string, value: unknown): string | undefined {
		const text = this.text(field, value ?? '');
		return text === '' ? undefined : text;
	}

	/** A whole number in [min, max], sent as a string. */
	integerInRange(field: string, value: unknown, min: number, max: number): string {
		const numeric = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
		if (typeof numeric !== 'number' || !Number.isInteger(numeric) || numeric < min || numeric > max) {
			this.fail(field, value, `must be a whole number from ${min} to ${max}`);
		}
		return String(numeric);
	}

	/** One of a fixed list of values. */
	oneOf(field: string, value: unknown, allowed: string[]): string {
		const text = this.text(field, value);
		if (!allowed.includes(text)) this.fail(field, value, `must be one of ${allowed.join(', ')}`);
		return text;
	}

	/** 4 to 8 letters or digits (spec 4.1, 8). */
	verifyCode(field: string, value: unknown): string {
		const text = this.required(field, value);
		if (!/^[A-Za-z0-9]{4,8}$/.test(text)) this.fail(field, value, 'must be 4 to 8 letters or digits');
		return text;
	}

	/** A callee: digits (a landline with its area code), optional leading +, optional '-extension'. */
	phoneNumber(field: string, value: unknown): string {
		const text = this.required(field, value);
		if (!/^\+?\d{3,20}(-\d{1,10})?$/.test(text)) {
			this.fail(field, value, "must be a phone number of 3 to 20 digits (a landline with its area code; an extension joined with '-')");
		}
		return text;
	}

	/** A mobile number for SMS: digits with an optional leading +. */
	mobileNumber(field: string, value: string): string {
		if (!/^\+?\d{5,20}$/.test(value)) this.fail(field, value, 'must contain only mobile numbers of 5 to 20 digits');
		return value;
	}

	/** An absolute http(s) URL, as respUrl must be "URL-conformant". */
	url(field: string, value: unknown): string | undefined {
		const text = this.optional(field, value);
		if (text === undefined) return undefined;
		let parsed: URL | undefined;
		try {
			parsed = new URL(text);
		} catch {
			parsed = undefined;
		}
		if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || /\s/.test(text)) {
			this.fail(field, value, 'must be an absolute http:// or https:// URL');
		}
		return text;
	}

	/** wav file names separated by ';' (spec 4.2, 4.3). */
	wavFileList(field: string, value: unknown, isRequired: boolean): string | undefined {
		const text = isRequired ? this.required(field, value) : this.optional(field, value);
		if (text === undefined) return undefined;
		const names = text.split(';').map((name) => name.trim());
		if (names.some((name) => !/^[^\s;]+\.wav$/i.test(name))) {
			this.fail(field, value, "must be .wav file names separated by ';' (e.g. welcome.wav;code.wav)");
		}
		return names.join(';');
	}

	private text(field: string, value: unknown): string {
		if (typeof value === 'number' || typeof value === 'boolean') return String(value);
		if (typeof value !== 'string') this.fail(field, value, 'must be text');
		return value.trim();
	}
}
