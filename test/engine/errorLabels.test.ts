import { NodeOperationError, type IDataObject, type INode } from 'n8n-workflow';

import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { OPERATIONS } from '../../nodes/Cloopen/resources';
import { CloopenApi } from '../../credentials/CloopenApi.credentials';
import { InputRules, type Field } from '../../nodes/Cloopen/validation/InputRules';
import {
	fieldLabelsAt,
	labelsAt,
	type FormPlace,
} from '../../nodes/Cloopen/validation/fieldLabels';
import { customServerCredentials, runCloopen } from '../support/runCloopen';
import { cannedPlatform } from './replay/cannedPlatform';
import { OPERATION_CASES } from './operationCases';

/**
 * Errors name a field by the label the user sees in the form (its parameter name only in brackets,
 * in the description). Built over the node's description: every validation rule of InputRules, for
 * every field the form shows at every operation, names that field's label; and
 * every field name the operations hand to a rule, in runs that reach every rule they apply, is one
 * the form has at that operation (or a credential's label).
 */
const properties = new Cloopen().description.properties;
const node = { name: 'Cloopen', type: 'n8n-nodes-cloopen.cloopen', typeVersion: 1 } as INode;

const PLACES: FormPlace[] = OPERATIONS.map(({ resource, operation }) => ({
	resource: resource.value,
	operation: operation.value,
}));

/** The methods that give the message instead of throwing it, for an answer that carries it. */
const ANSWERING = ['message', 'readPhoneNumber'] as const;
type RuleName = Exclude<keyof InputRules, (typeof ANSWERING)[number]>;
/** One failing call of each rule of InputRules. */
const FAILING: Record<RuleName, (rules: InputRules, field: Field) => unknown> = {
	fail: (rules, field) => rules.fail(field, 'x', 'is wrong'),
	required: (rules, field) => rules.required(field, ' '),
	optional: (rules, field) => rules.optional(field, true),
	userData: (rules, field) => rules.userData(field, { a: 1 }),
	integerInRange: (rules, field) => rules.integerInRange(field, 'x', 1, 3),
	wholeNumber: (rules, field) => rules.wholeNumber(field, 'x'),
	oneOf: (rules, field) => rules.oneOf(field, 'x', ['a', 'b']),
	verifyCode: (rules, field) => rules.verifyCode(field, '1'),
	placeholderValue: (rules, field) => rules.placeholderValue(field, ''),
	optionalPhoneNumber: (rules, field) => rules.optionalPhoneNumber(field, '12345'),
	phoneNumber: (rules, field) => rules.phoneNumber(field, '12345'),
	url: (rules, field) => rules.url(field, 'x'),
	wavFile: (rules, field) => rules.wavFile(field, 'x'),
	wavFileList: (rules, field) => rules.wavFileList(field, 'x', true),
};
/** The rules: every method of InputRules but its private helpers `text` and `whole`. */
const RULES = Object.getOwnPropertyNames(InputRules.prototype).filter(
	(name) =>
		name !== 'constructor' &&
		name !== 'text' &&
		name !== 'whole' &&
		!(ANSWERING as readonly string[]).includes(name),
);

const failureOf = (call: () => unknown): NodeOperationError => {
	try {
		call();
	} catch (error) {
		return error as NodeOperationError;
	}
	throw new Error('the rule accepted a value it should refuse');
};

it('the table holds one failing call of every rule of InputRules', () => {
	expect(Object.keys(FAILING).sort()).toEqual(RULES.sort());
});

it('every operation has fields whose names carry one label each', () => {
	expect(PLACES.length).toBeGreaterThanOrEqual(12);
	for (const place of PLACES) expect(() => labelsAt(properties, place)).not.toThrow();
});

describe.each(PLACES)('$resource → $operation', (place) => {
	it('every rule names each field of the form by its label, and its name in brackets', () => {
		const labels = labelsAt(properties, place);
		const rules = new InputRules(node, 0, fieldLabelsAt(properties, place));
		for (const { label, name, within } of labels.values()) {
			for (const rule of RULES) {
				const error = failureOf(() => FAILING[rule as RuleName](rules, name));
				expect({ rule, name, message: error.message.startsWith(`${label} `) }).toEqual({
					rule,
					name,
					message: true,
				});
				expect(error.description).toContain(`fix "${label}"`);
				if (label !== name) expect(error.description).toContain(`(${name})`);
				if (within) expect(error.description).toContain(`in ${within}`);
			}
			for (const message of [
				rules.message(name, 'x', 'is wrong'),
				(rules.readPhoneNumber(name, '12345') as { refusal: string }).refusal,
			])
				expect({ name, message: message.startsWith(`${label} `) }).toEqual({ name, message: true });
		}
	});
});

describe.each(PLACES)('$resource → $operation: number fields', (place) => {
	// Fields of whole numbers (a field of fractions, such as Max Wait (Minutes), is read otherwise).
	const bounded = [...labelsAt(properties, place).values()].filter(
		({ range }) => range && Number.isInteger(range.min) && Number.isInteger(range.max),
	);
	const rules = new InputRules(node, 0, fieldLabelsAt(properties, place));
	it('a whole number is held to the range its field in the form declares, and the error says it', () => {
		for (const { label, name, range } of bounded) {
			const { min, max } = range!;
			for (const value of [min, max]) expect(rules.wholeNumber(name, value)).toBe(String(value));
			// An open side (a safe integer's limit) has nothing beyond it and goes unsaid.
			const stated = [min, max].filter((bound) => Math.abs(bound) < Number.MAX_SAFE_INTEGER);
			expect(stated.length).toBeGreaterThan(0);
			for (const value of [min - 1, max + 1].filter(Number.isSafeInteger)) {
				const { message } = failureOf(() => rules.wholeNumber(name, value));
				expect(message.startsWith(`${label} must be a whole number `)).toBe(true);
				for (const bound of stated) expect(message).toContain(String(bound));
			}
		}
	});
});

it('a row of Template Data is named by its number', () => {
	const place = { resource: 'sms', operation: 'sendTemplate' };
	const rules = new InputRules(node, 0, fieldLabelsAt(properties, place));
	const error = failureOf(() => rules.placeholderValue({ name: 'templateData', row: 2 }, ''));
	expect(error.message).toBe('Template Data row 2 is required and must not be empty, got ""');
	expect(error.description).toBe(
		'The request was not sent: fix row 2 of "Template Data" (templateData) and run again.',
	);
});

/** Runs that reach the rules each operation applies: every case, and the branches they skip. */
const RUNS: Array<{ title: string; parameters: IDataObject }> = [
	...OPERATION_CASES.map(({ title, parameters }) => ({ title, parameters })),
	...[
		{
			title: 'Voice Notification → Call, text and audio files with every field',
			parameters: {
				resource: 'voiceNotification',
				operation: 'call',
				to: '13800000000',
				content: 'both',
				mediaTxt: 'hello',
				mediaName: 'a.wav',
				mediaNameType: '0',
				speechOptions: { txtSpeed: 1, txtVolume: 1, txtPitch: 1, txtBgsound: 1 },
				additionalFields: {
					displayNum: '13900000000',
					playTimes: 2,
					respUrl: 'https://example.com/r',
					userData: 'u',
				},
			},
		},
		{
			title: 'Voice Verification → Send Custom Audio Code with every field',
			parameters: {
				resource: 'voiceVerification',
				operation: 'sendCustomAudioCode',
				to: '13800000000',
				playVerifyCode: 'a.wav;b.wav',
				additionalFields: {
					verifyCode: '1234',
					displayNum: '13900000000',
					playTimes: 1,
					maxCallTime: 30,
					welcomePrompt: 'w.wav',
					userData: 'u',
				},
			},
		},
		{
			title: 'Call → Get State, waiting until it ended',
			parameters: {
				resource: 'call',
				operation: 'getState',
				callSid: 'c1',
				options: { waitUntilEnded: true, pollIntervalSeconds: 1, maxWaitSeconds: 5 },
			},
		},
		{
			title: 'Bill Records → Get Download Info with the file',
			parameters: {
				resource: 'billRecords',
				operation: 'getDownloadInfo',
				download: true,
				binaryPropertyName: 'bill',
				options: { keywords: 'k', maxFileSizeMb: 5 },
			},
		},
		{
			title: 'Sub-Account → Get Many from a start',
			parameters: {
				resource: 'subAccount',
				operation: 'getAll',
				returnAll: false,
				limit: 3,
				options: { startNo: 1 },
			},
		},
	],
];

describe('the operations hand the rules only names the form has', () => {
	const platform = cannedPlatform();
	const credentialLabels = new CloopenApi().properties.map((property) => property.displayName);
	const spies = RULES.map((rule) =>
		jest.spyOn(InputRules.prototype, rule as RuleName).mockName(rule),
	);
	const integerInRange = spies[RULES.indexOf('integerInRange')];
	beforeAll(async () => await platform.start());
	afterAll(async () => {
		jest.restoreAllMocks();
		await platform.stop();
	});

	it.each(RUNS)('$title', async ({ parameters }) => {
		for (const spy of spies) spy.mockClear();
		const { error } = await runCloopen(
			{ appId: '8a216da8588b296f01589e5a7f3b0b3c', ...parameters },
			{ credentials: customServerCredentials(platform.baseUrl) },
		);
		expect(error).toBeUndefined();
		const place = {
			resource: String(parameters.resource),
			operation: String(parameters.operation),
		};
		const inForm = labelsAt(properties, place);
		const named = spies.flatMap((spy) =>
			spy.mock.calls.map(([field]) => (typeof field === 'string' ? field : field.name)),
		);
		expect(named.length).toBeGreaterThan(0);
		// A field whose form declares a range is read by wholeNumber, so its bounds have one home.
		const givenOwnRange = integerInRange.mock.calls
			.map(([field]) => (typeof field === 'string' ? field : field.name))
			.filter((name) => inForm.get(name)?.range !== undefined);
		expect(givenOwnRange).toEqual([]);
		for (const name of new Set(named)) {
			expect({ name, inForm: inForm.has(name) || credentialLabels.includes(name) }).toEqual({
				name,
				inForm: true,
			});
		}
	});
});
