import { maskNumber } from '../../nodes/Cloopen/resources/oneTimeCode/rules/maskNumber';
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { OPERATIONS } from '../../nodes/Cloopen/resources';
import {
	MOBILE_NUMBER_HINT,
	PHONE_NUMBER_HINT,
	PHONE_NUMBER_RULE,
} from '../../nodes/shared/platform/phoneNumbers';
import { customServerCredentials, runCloopen } from '../support/runCloopen';
import { useScriptedPlatform } from '../support/scriptedPlatform';
import { OPERATION_CASES } from './operationCases';

/**
 * A number is taken and written one way in every resource: over the registry, every operation with
 * a phone number field (SMS, voice verification, voice notification, One-Time Code, and any added
 * later) takes the same spellings, sends the same one form, and refuses the same inputs in the same
 * words, naming the field's label, the value and the rule, with nothing sent.
 */

/** A phone number field says so in its tooltip, in the one set of words (phoneNumbers.ts). */
const isPhoneField = (field: INodeProperties) =>
	field.type === 'string' &&
	[PHONE_NUMBER_HINT, MOBILE_NUMBER_HINT].some((hint) => field.description?.includes(hint));

/** A field whose name or label says it holds a phone number, whatever its tooltip. */
const looksLikeNumber = (field: INodeProperties) =>
	field.type === 'string' &&
	(/^(to|displayNum)$|phone|mobile/i.test(field.name) ||
		/^To$|phone|mobile/i.test(field.displayName));

function everyField(fields: INodeProperties[]): Array<{ field: INodeProperties; within?: string }> {
	return fields.flatMap((field) =>
		field.type === 'collection'
			? ((field.options ?? []) as INodeProperties[]).map((child) => ({
					field: child,
					within: field.name,
				}))
			: [{ field }],
	);
}

interface PhoneField {
	title: string;
	resource: string;
	operation: string;
	name: string;
	label: string;
	within?: string;
	/** Only mobile numbers (SMS). */
	mobileOnly: boolean;
}

const PHONE_FIELDS: PhoneField[] = OPERATIONS.flatMap(({ resource, operation }) => {
	const seen = new Set<string>();
	return everyField([...operation.fields, ...(operation.options ?? [])])
		.filter(({ field }) => isPhoneField(field))
		.filter(({ field }) => !seen.has(field.name) && seen.add(field.name))
		.map(({ field, within }) => ({
			title: `${resource.name} → ${operation.name}: ${field.displayName}`,
			resource: resource.value,
			operation: operation.value,
			name: field.name,
			label: field.displayName,
			within,
			mobileOnly: field.description!.includes(MOBILE_NUMBER_HINT),
		}));
});

it('every field that holds a phone number uses the one set of words, so the table below covers it', () => {
	const unmarked = OPERATIONS.flatMap(({ resource, operation }) =>
		everyField([...operation.fields, ...(operation.options ?? [])])
			.filter(({ field }) => looksLikeNumber(field) && !isPhoneField(field))
			.map(({ field }) => `${resource.value}/${operation.value}/${field.name}`),
	);
	expect(unmarked).toEqual([]);
	expect(new Set(PHONE_FIELDS.map(({ resource }) => resource))).toEqual(
		new Set(['voiceVerification', 'voiceNotification', 'sms', 'oneTimeCode']),
	);
});

// what is typed, and what goes out: a string, or null for a refusal
const SPELLINGS: Array<{ typed: string; call: string | null; sms: string | null }> = [
	{ typed: '13800000000', call: '13800000000', sms: '13800000000' },
	{ typed: '+86 138 0000 0000', call: '13800000000', sms: '13800000000' },
	{ typed: '0086-138-0000-0000', call: '13800000000', sms: '13800000000' },
	{ typed: '１３８００００００００', call: '13800000000', sms: '13800000000' },
	{ typed: '(010) 1234-5678', call: '01012345678', sms: null },
	{ typed: '+86 10 12345678', call: '01012345678', sms: null },
	{ typed: '01012345678-1', call: '01012345678-1', sms: null },
	{ typed: '010 12345678 转 123', call: '01012345678-123', sms: null },
	{ typed: '+852 9123 4567', call: '+85291234567', sms: '+85291234567' },
	{ typed: '+44 (0)20 7946 0000', call: '+442079460000', sms: '+442079460000' },
	{ typed: '+44 020 7946 0000', call: '+442079460000', sms: '+442079460000' },
	{ typed: '+852 0 9123 4567', call: '+85291234567', sms: '+85291234567' },
	{ typed: '+39 06 1234 5678', call: '+390612345678', sms: '+390612345678' },
	{ typed: '01012345678-001', call: '01012345678-001', sms: null },
	{ typed: '13800000000-1', call: null, sms: null },
	{ typed: '01012345678 1', call: null, sms: null },
	{ typed: '1380000abcd', call: null, sms: null },
	{ typed: '8613800000000', call: null, sms: null },
];

/** The countries of the spellings above, allowed in the credential (the account's destinations). */
const COUNTRIES_USED = { otherCountriesAllowed: '+852, +44, +39' };

/** An operation's parameters that succeed, from the wire tests' cases (the first one for it). */
function baseParameters(place: PhoneField): IDataObject {
	const found = OPERATION_CASES.find(
		({ parameters }) =>
			parameters.resource === place.resource && parameters.operation === place.operation,
	);
	if (!found)
		throw new Error(`no case in operationCases.ts for ${place.resource}/${place.operation}`);
	const { parameters } = found;
	// One-Time Code with every destination allowed.
	return place.resource === 'oneTimeCode'
		? {
				...parameters,
				allowedDestinations: ['chinaMobile', 'chinaLandline', 'international'],
				countryCodes: '852, 44, 39',
			}
		: parameters;
}

function withNumber(parameters: IDataObject, place: PhoneField, typed: string): IDataObject {
	if (!place.within) return { ...parameters, [place.name]: typed };
	const within = (parameters[place.within] ?? {}) as IDataObject;
	return { ...parameters, [place.within]: { ...within, [place.name]: typed } };
}

const platform = useScriptedPlatform({
	unscripted: (request) => ({
		body: JSON.stringify(
			request.path.endsWith('SMS/TemplateSMS')
				? {
						statusCode: '000000',
						templateSMS: { smsMessageSid: 'ff80', dateCreated: '20261122100004' },
					}
				: {
						statusCode: '000000',
						VoiceVerify: { callSid: '1307', dateCreated: '2026-11-22 10:00:00' },
						LandingCall: { callSid: '1307', dateCreated: '2026-11-22 10:00:00' },
					},
		),
	}),
});

describe.each(PHONE_FIELDS)('$title', (place) => {
	it.each(SPELLINGS)('$typed', async ({ typed, call, sms }) => {
		if (place.resource === 'oneTimeCode' && place.operation === 'check')
			return await checkedAgainst(place, typed, call);
		if (place.resource === 'oneTimeCode' && ['getStatus', 'reset'].includes(place.operation))
			return await lookedUp(place, typed, call);
		const expected = place.mobileOnly || channelIsSms(place) ? sms : call;
		const { error, json } = await runCloopen(withNumber(baseParameters(place), place, typed), {
			credentials: customServerCredentials(platform.baseUrl, COUNTRIES_USED),
		});
		if (expected === null) {
			expect(platform.requests).toHaveLength(0);
			expectRefusal(error?.message ?? String(json[0]?.reason), place, typed);
			return;
		}
		expect(error).toBeUndefined();
		expect(platform.requests).toHaveLength(1);
		const body = JSON.parse(platform.requests[0].body) as IDataObject;
		expect(body[place.name === 'displayNum' ? 'displayNum' : 'to']).toBe(expected);
	});
});

function expectRefusal(message: string, place: PhoneField, typed: string) {
	expect(message.startsWith(`${place.label} `)).toBe(true);
	expect(message).toContain(JSON.stringify(typed));
	expect(message).toContain(ruleFor(typed, place));
}

/**
 * One-Time Code → Check sends nothing: it looks the code up by the number. A code sent to the
 * number's one form is approved for every spelling of it.
 */
async function checkedAgainst(place: PhoneField, typed: string, form: string | null) {
	const credentials = customServerCredentials(platform.baseUrl, COUNTRIES_USED);
	const check = () =>
		runCloopen(
			{
				resource: 'oneTimeCode',
				operation: 'check',
				codeEntered: 'K7P2',
				phoneNumber: typed,
			},
			{ credentials },
		);
	if (form === null) {
		const { error, json } = await check();
		expect(json[0]).toMatchObject({ status: 'not_valid', httpStatus: 400 });
		expectRefusal(error?.message ?? String(json[0]?.reason), place, typed);
		return;
	}
	const sendPlace = { ...place, operation: 'send', name: 'to' };
	const sent = await runCloopen(withNumber(baseParameters(sendPlace), sendPlace, form), {
		credentials,
	});
	expect(sent.error).toBeUndefined();
	const { error, json } = await check();
	expect(error).toBeUndefined();
	expect(json[0]).toMatchObject({ status: 'approved', to: maskNumber(form) });
}

/** One-Time Code → Get Status and Reset send nothing: they name the number they looked up, in its one form. */
async function lookedUp(place: PhoneField, typed: string, form: string | null) {
	const { error, json } = await runCloopen(
		{
			resource: 'oneTimeCode',
			operation: place.operation,
			dataTableName: 'phone number forms',
			phoneNumber: typed,
		},
		{ credentials: customServerCredentials(platform.baseUrl) },
	);
	expect(platform.requests).toHaveLength(0);
	if (form === null) return expectRefusal(String(error?.message), place, typed);
	expect(error).toBeUndefined();
	expect(json[0].phoneNumber).toBe(form);
}

/** One-Time Code → Send by SMS (its template SMS case) takes mobile numbers only. */
function channelIsSms(place: PhoneField): boolean {
	return baseParameters(place).channel === 'sms';
}

/** The rule a refusal ends with: the forms, or for a landline by SMS why it cannot be. */
function ruleFor(typed: string, place: PhoneField): string {
	const callable = SPELLINGS.find((row) => row.typed === typed)?.call;
	return callable !== null && (place.mobileOnly || channelIsSms(place))
		? 'an SMS cannot reach it'
		: PHONE_NUMBER_RULE;
}
