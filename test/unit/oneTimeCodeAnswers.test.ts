import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	CHECK_HTTP_STATUS,
	CHECK_STATUSES,
	refusalHttpStatus,
	SEND_STATUSES,
} from '../../nodes/Cloopen/resources/oneTimeCode/answers';

/**
 * Every status the docs list is one the node gives, and no other: docs/one-time-codes.md's Answers
 * table, the README's walkthrough and its Operations table, against the node's own lists (which the
 * type of a check's verdict and of Send's answers are drawn from).
 */
const root = join(__dirname, '..', '..');
const docs = readFileSync(join(root, 'docs', 'one-time-codes.md'), 'utf8');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The Answers table's rows: operation, status, HTTP statuses. */
const rows = [...docs.matchAll(/^\| (Send|Check) \| `(\w+)` \| ([\d, ]+) \|/gm)].map(
	([, operation, status, codes]) => ({
		operation,
		status,
		codes: codes.split(',').map((code) => Number(code.trim())),
	}),
);

it("the Answers table lists Send's statuses and no other", () => {
	const send = rows.filter(({ operation }) => operation === 'Send');
	expect(send.map(({ status }) => status)).toEqual([...SEND_STATUSES]);
	expect(send.find(({ status }) => status === 'sent')?.codes).toEqual([200]);
	const refusalCodes = [
		'number form',
		'destination allow-list',
		'SMS to mobile numbers only',
		'resend cooldown',
		'send limit per number',
		'codes per hour for all numbers',
		'codes per hour for a country code',
		'busy store',
		'store size',
		'damaged store',
		'store unavailable',
	].map(refusalHttpStatus);
	expect(send.find(({ status }) => status === 'refused')?.codes).toEqual(
		[...new Set(refusalCodes)].sort(),
	);
});

it("the Answers table lists Check's statuses, each with its HTTP status, and no other", () => {
	const check = rows.filter(({ operation }) => operation === 'Check');
	expect(Object.fromEntries(check.map(({ status, codes }) => [status, codes]))).toEqual(
		Object.fromEntries(CHECK_STATUSES.map((status) => [status, [CHECK_HTTP_STATUS[status]]])),
	);
});

it("the README's walkthrough names only statuses the node gives", () => {
	const walkthrough = readme.slice(
		readme.indexOf('5. **Check it**'),
		readme.indexOf('### Walkthrough: alert'),
	);
	const named = [...walkthrough.matchAll(/`([a-z]+(?:_[a-z]+)*)`/g)].map(([, word]) => word);
	expect(named.length).toBeGreaterThan(5);
	for (const word of named)
		expect([word, [...CHECK_STATUSES, ...SEND_STATUSES].includes(word as never)]).toEqual([
			word,
			true,
		]);
});

it("the README's Operations table names every status of Check, in words", () => {
	const row = readme.split('\n').find((line) => line.startsWith('| One-Time Code | Check:'));
	const words = row
		?.split('|')[2]
		.replace(/^\s*Check:\s*/, '')
		.trim()
		.split(/,\s*/);
	expect(words).toEqual(CHECK_STATUSES.map((status) => status.replace(/_/g, ' ')));
});
