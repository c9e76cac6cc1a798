import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { PHONE_NUMBER_HINT } from '../../../shared/platform/phoneNumbers';

/** The application id field; the platform calls it appId everywhere except the call-state query. */
export const appIdField: INodeProperties = {
	displayName: 'App ID',
	name: 'appId',
	type: 'string',
	default: '',
	placeholder: 'Default App ID from the credentials',
	description: 'APP ID of the application in the Cloopen console (Application Management)',
	hint: 'Leave empty to use the Default App ID of the selected credentials',
};

const ACCEPTED_NOT_ANSWERED =
	'A successful run means Cloopen accepted the call, not that anyone answered. To learn how the call went,';

/**
 * The platform answers a call request at once (docs/platform.md#voice-verification); how the call went comes later. Shown
 * above the fields of both voice resources, because users expect "success" to mean "answered".
 * Not on the tool variant ('@tool'), which has no Wait for Call Result: callOutcomeToolNotice is.
 */
export const callOutcomeNotice: INodeProperties = {
	displayName: `${ACCEPTED_NOT_ANSWERED} turn on Wait for Call Result, paste a Cloopen Trigger's URL into Result URL (Additional Fields), or follow with Call → Get State and Get Result using the callSid.`,
	name: 'callOutcomeNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { '@tool': [false] } },
};

/** The same for the tool variant, with the ways a tool has. */
export const callOutcomeToolNotice: INodeProperties = {
	displayName: `${ACCEPTED_NOT_ANSWERED} paste a Cloopen Trigger's URL into Result URL (Additional Fields), or give the agent Call → Get State and Get Result as other tools, with the callSid.`,
	name: 'callOutcomeToolNotice',
	type: 'notice',
	default: '',
	displayOptions: { show: { '@tool': [true] } },
};

export const respUrlField: INodeProperties = {
	displayName: 'Result URL',
	name: 'respUrl',
	type: 'string',
	default: '',
	placeholder: 'https://your-n8n/webhook/…/cloopen',
	description:
		'Where the platform posts the call result (respUrl) when the call ends. To start a workflow then, paste the Production URL of a Cloopen Trigger node here (its Test URL for a test event; add ?secret=… if the trigger has a secret).',
};

/**
 * Result URL of an operation that can wait: hidden while Wait for Call Result is on, since the node
 * then sets it itself (and n8n leaves a hidden field's value out).
 */
export const respUrlHiddenWhileWaiting: INodeProperties = {
	...respUrlField,
	displayOptions: { hide: { '/waitForResult': [true] } },
};

/** The platform does not document the unit; the field reads as seconds (docs/platform.md). */
export const maxCallTimeField: INodeProperties = {
	displayName: 'Max Call Time (Seconds)',
	name: 'maxCallTime',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 60,
	description:
		'The call is hung up automatically after this long (maxCallTime; Cloopen does not document the unit, seconds are usual)',
};

export const playTimesField: INodeProperties = {
	displayName: 'Play Times',
	name: 'playTimes',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 3 },
	default: 1,
	description: 'How many times the message is played, 1 to 3',
};

export const displayNumField: INodeProperties = {
	displayName: 'Display Number',
	name: 'displayNum',
	type: 'string',
	default: '',
	description: `Number shown to the person called; Cloopen shows it only if your account is allowed to use it. ${PHONE_NUMBER_HINT}.`,
};

export const userDataField: INodeProperties = {
	displayName: 'User Data',
	name: 'userData',
	type: 'string',
	default: '',
	description:
		'Your own text, such as an order or user ID, sent back with the call result (the Cloopen Trigger outputs it as userData)',
};

/**
 * A field that takes one phone number, as every resource asks for one: the same example, and the
 * purpose followed by the one hint of the spellings the node takes.
 */
export const phoneNumberField = (
	field: { displayName: string; name: string; required?: true },
	purpose: string,
): INodeProperties => ({
	...field,
	type: 'string',
	default: '',
	placeholder: '13800000000',
	description: `${purpose} ${PHONE_NUMBER_HINT}.`,
});

/**
 * The fields that hold numbers a person is reached at (called or texted), declared where the field is
 * built: the registry checks every one against the account's destinations before an operation runs.
 */
const REACHES_PERSON = new WeakMap<INodeProperties, 'one' | 'list'>();

/** A field that holds the number a call or SMS goes to: phoneNumberField, declared as reaching a person. */
export const personNumberField = (
	field: { displayName: string; name: string; required?: true },
	purpose: string,
): INodeProperties => {
	const built = phoneNumberField(field, purpose);
	REACHES_PERSON.set(built, 'one');
	return built;
};

/** A field that lists numbers a call or SMS goes to (NUMBER_LIST_SEPARATOR or a list), declared so. */
export const personNumbersField = (field: INodeProperties): INodeProperties => {
	REACHES_PERSON.set(field, 'list');
	return field;
};

/** Whether a field holds one number or a list of numbers a person is reached at; undefined for any other. */
export const reachesPerson = (field: INodeProperties) => REACHES_PERSON.get(field);

/** The number a call goes to, as both voice resources ask for it. */
export const numberToCallField = personNumberField(
	{ displayName: 'To', name: 'to', required: true },
	'Number to call.',
);

/** An operation's Additional Fields: these fields, shown where `show` says (always when none). */
export const additionalFields = (
	options: INodeProperties[],
	show?: NonNullable<IDisplayOptions['show']>,
): INodeProperties => ({
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	...(show ? { displayOptions: { show } } : {}),
	options,
});
