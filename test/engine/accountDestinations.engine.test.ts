import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { OPERATIONS } from '../../nodes/Cloopen/resources';
import { reachesPerson } from '../../nodes/Cloopen/resources/common/fields';
import { personFieldsOf } from '../../nodes/Cloopen/resources/destinationGuard';
import { runNode } from '../adversarial/nodeRun';
import { useEmulator } from '../support/useEmulator';
import { OPERATION_CASES } from './operationCases';

/**
 * Where a call or SMS may go is set once, in the credential: over the registry, every operation with
 * a field that reaches a person (and any added later) sends to mainland China, refuses other
 * countries until listed and premium-rate or international-network ranges until a prefix is listed,
 * with nothing reaching the emulator, through n8n's engine over real HTTP.
 */
const { emulator, credentials } = useEmulator();

const REACHING = OPERATIONS.flatMap(({ resource, operation }) =>
	personFieldsOf(operation.fields).map((field) => ({
		title: `${resource.name} → ${operation.name}: ${field.name}`,
		resource: resource.value,
		operation: operation.value,
		field,
		answersRefusals: operation.destinationRefused !== undefined,
	})),
);

it('every To field of the registry is declared as reaching a person, so the table covers it', () => {
	const undeclared = OPERATIONS.flatMap(({ resource, operation }) =>
		operation.fields
			.flatMap((field) =>
				field.type === 'collection' ? (field.options as INodeProperties[]) : [field],
			)
			.filter((field) => field.name === 'to' && reachesPerson(field) === undefined)
			.map((field) => `${resource.value}/${operation.value}/${field.name}`),
	);
	expect(undeclared).toEqual([]);
});

it('the table covers every resource whose operations reach a person', () => {
	expect(new Set(REACHING.map(({ resource }) => resource))).toEqual(
		new Set(['voiceVerification', 'voiceNotification', 'sms', 'oneTimeCode']),
	);
	expect(REACHING.length).toBeGreaterThanOrEqual(5);
});

/** The first wire case of the operation, with One-Time Code's own allow-list opened wide (it can only narrow). */
function parametersFor(place: (typeof REACHING)[number], typed: string): IDataObject {
	const found = OPERATION_CASES.find(
		({ parameters }) =>
			parameters.resource === place.resource && parameters.operation === place.operation,
	);
	if (!found)
		throw new Error(`no case in operationCases.ts for ${place.resource}/${place.operation}`);
	const opened =
		place.resource === 'oneTimeCode'
			? {
					allowedDestinations: ['chinaMobile', 'chinaLandline', 'international'],
					countryCodes: '1, 852, 882, 252',
				}
			: {};
	return { ...found.parameters, appId: emulator.appId, ...opened, [place.field.name]: typed };
}

const CREDENTIAL_FIELD = {
	countries: "in the credential 'Cloopen API' → Other Countries Allowed",
	prefixes: "in the credential 'Cloopen API' → Premium and International-Network Prefixes Allowed",
};

// typed, the credential's lists, and what happens: the number sent, or the refusal's words
const CASES: Array<{
	typed: string;
	account: IDataObject;
	sent?: string;
	refused?: string[];
}> = [
	{ typed: '13800000000', account: {}, sent: '13800000000' },
	{ typed: '+1 900 555 0100', account: {}, refused: ['+1900', CREDENTIAL_FIELD.prefixes] },
	{
		typed: '+1 900 555 0100',
		account: { otherCountriesAllowed: '+1' },
		refused: ['+1900', 'NANP premium-rate', 'even in a listed country', CREDENTIAL_FIELD.prefixes],
	},
	{
		typed: '+1 900 555 0100',
		account: { premiumPrefixesAllowed: '+1 900' },
		sent: '+19005550100',
	},
	{
		typed: '+882 1234 5678',
		account: { otherCountriesAllowed: '+852, +1' },
		refused: ['+882', 'international networks', CREDENTIAL_FIELD.prefixes],
	},
	{
		typed: '+252 61 234 5678',
		account: {},
		refused: ['+252', 'Somalia', CREDENTIAL_FIELD.prefixes],
	},
	{
		typed: '+252 61 234 5678',
		account: { otherCountriesAllowed: '+252' },
		refused: ['+252', 'Somalia', CREDENTIAL_FIELD.prefixes],
	},
	{
		typed: '+852 9123 4567',
		account: {},
		refused: ['country code +852', CREDENTIAL_FIELD.countries],
	},
	{ typed: '+852 9123 4567', account: { otherCountriesAllowed: '+852' }, sent: '+85291234567' },
];

describe.each(REACHING)('$title', (place) => {
	it.each(CASES)('$typed with $account', async ({ typed, account, sent, refused }) => {
		const { error, json } = await runNode(parametersFor(place, typed), {
			credentials: credentials(account),
		});
		const bodies = emulator.requests().map((request) => String(request.body));
		if (sent !== undefined) {
			expect(error).toBeUndefined();
			expect(bodies).toHaveLength(1);
			expect(bodies[0]).toContain(sent);
			return;
		}
		expect(bodies).toEqual([]);
		if (place.answersRefusals) {
			// An operation that answers refusals as items (One-Time Code → Send) answers this one too: 403.
			expect(error).toBeUndefined();
			expect(json).toHaveLength(1);
			expect(json[0]).toMatchObject({ status: 'refused', httpStatus: 403 });
			const reason = String(json[0].reason);
			expect(reason.startsWith('To ')).toBe(true);
			for (const words of refused!) expect(reason).toContain(words);
			expect(reason).toContain('Nothing was sent');
			return;
		}
		expect(json).toEqual([]);
		expect(error?.message.startsWith('To ')).toBe(true);
		for (const words of refused!) expect(error?.message).toContain(words);
		expect(error?.description).toContain('Not sent: nothing reached the platform');
	});
});

it('One-Time Code’s own allow-list only narrows: +852 allowed by the account is still refused when Send does not list it', async () => {
	const place = REACHING.find(({ resource }) => resource === 'oneTimeCode')!;
	const { error, json } = await runNode(
		{ ...parametersFor(place, '+852 9123 4567'), countryCodes: '1' },
		{ credentials: credentials({ otherCountriesAllowed: '+852' }) },
	);
	expect(error).toBeUndefined();
	expect(json[0]).toMatchObject({ status: 'refused' });
	expect(emulator.requests()).toEqual([]);
});

describe('SMS → Send Template: every number of To is checked', () => {
	const sms = REACHING.find(({ resource }) => resource === 'sms')!;
	it.each([
		['13800000000, +882 1234 5678', 'number 2 of 2', '+882'],
		['+852 9123 4567\n13800000000', 'number 1 of 2', 'country code +852'],
		['13800000000, 13900000000, +252 61 234 5678', 'number 3 of 3', '+252'],
	])('%j is refused whole, naming %s', async (to, which, words) => {
		const { error } = await runNode(parametersFor(sms, to), { credentials: credentials() });
		expect(error?.message).toContain(`To ${which} is`);
		expect(error?.message).toContain(words);
		expect(emulator.requests()).toEqual([]);
	});

	it('a list given by an expression is checked entry by entry', async () => {
		const { error } = await runNode(
			parametersFor(sms, '={{ ["13800000000", "+1 900 555 0100"] }}'),
			{ credentials: credentials({ otherCountriesAllowed: '+1' }) },
		);
		expect(error?.message).toContain('To number 2 of 2 is in the range +1900');
		expect(emulator.requests()).toEqual([]);
	});

	it('mainland numbers and listed countries go out together', async () => {
		const { error } = await runNode(parametersFor(sms, '13800000000, +852 9123 4567'), {
			credentials: credentials({ otherCountriesAllowed: '+852' }),
		});
		expect(error).toBeUndefined();
		expect(emulator.requests()).toHaveLength(1);
		expect(String(emulator.requests()[0].body)).toContain('+85291234567');
	});
});

it('with Continue On Fail, a refused number is an error item for its own item; the others are sent', async () => {
	const voice = REACHING.find(({ operation }) => operation === 'sendCode')!;
	const { error, output } = await runNode(
		{ ...parametersFor(voice, '={{ $json.to }}') },
		{
			credentials: credentials(),
			continueOnFail: true,
			items: [{ to: '13800000000' }, { to: '+882 1234 5678' }, { to: '13900000000' }],
		},
	);
	expect(error).toBeUndefined();
	expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	expect(output[1].json.error).toEqual(expect.stringContaining('+882'));
	expect(output[0].json.callSid).toEqual(expect.any(String));
	expect(output[2].json.callSid).toEqual(expect.any(String));
	expect(emulator.requests()).toHaveLength(2);
});

it('as an AI tool, the model is told the refusal in English, without the Auth Token', async () => {
	const voice = REACHING.find(({ operation }) => operation === 'call')!;
	const { json } = await runNode(parametersFor(voice, '+882 1234 5678'), {
		credentials: credentials(),
		asTool: true,
	});
	const told = String(json[0]?.error);
	expect(told).toContain('To is in the range +882 (international networks)');
	expect(told).toContain(CREDENTIAL_FIELD.prefixes);
	expect(told).toMatch(/not sent: nothing reached the platform$/);
	expect(JSON.stringify(json)).not.toContain(emulator.authToken);
	expect(emulator.requests()).toEqual([]);
});

it('a credential list that cannot be read refuses the run, naming the field and the entry', async () => {
	const voice = REACHING.find(({ operation }) => operation === 'sendCode')!;
	const { error } = await runNode(parametersFor(voice, '13800000000'), {
		credentials: credentials({ otherCountriesAllowed: '+852, +85' }),
	});
	expect(error?.message).toContain(
		`The credential 'Cloopen API' → Other Countries Allowed lists "+85", which is not a country calling code`,
	);
	expect(emulator.requests()).toEqual([]);
});

it('Wait for Call Result (call-and-wait) refuses the same way, before the call and before waiting', async () => {
	const voice = REACHING.find(({ operation }) => operation === 'sendCode')!;
	const { error, result } = await runNode(
		{ ...parametersFor(voice, '+882 1234 5678'), waitForResult: true },
		{ credentials: credentials() },
	);
	expect(error?.message).toContain('To is in the range +882 (international networks)');
	expect(result.run.waitTill).toBeUndefined();
	expect(emulator.requests()).toEqual([]);
});
