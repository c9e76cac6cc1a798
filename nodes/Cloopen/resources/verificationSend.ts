import { randomBytes } from 'node:crypto';

import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import { codeDigest } from '../codes/codeDigest';
import { alphabetOf, normalizeCode, ownCodeProblem } from '../codes/codeFormat';
import { destinationOf, type DestinationKind } from '../codes/destinations';
import { generateCode, type CodeAlphabet } from '../codes/generateCode';
import { withCodeHidden } from '../codes/hideCode';
import { allowSend, readRecentSends } from '../codes/sendLimits';
import { sealVerification } from '../codes/sealedCode';
import { nestedObject, withoutEmpty } from './answerShape';
import { appIdOf } from './appId';
import { withIsoDates } from './platformDate';
import type { OperationContext, OperationOutput } from './types';
import { signingKeys } from './verificationKeys';

const OPERATION = 'Verification → Send Code';
const DESTINATION_KINDS: DestinationKind[] = ['chinaMobile', 'chinaLandline', 'international'];

/** A refusal by one of the guards: nothing was sent, and the error says which rule and until when. */
function refusal(
	context: OperationContext,
	rule: string,
	reason: string,
	retryAfterSeconds?: number,
): NodeOperationError {
	const error = new NodeOperationError(
		context.executeFunctions.getNode(),
		`Refused by the ${rule}: ${reason}. Nothing was sent.`,
		{
			itemIndex: context.itemIndex,
			description:
				rule === 'destination allow-list'
					? 'Codes go only where Allowed Destinations says. Add a destination there only if you serve people with such numbers.'
					: rule === 'number form'
						? 'Write the number in that form before Send Code (in your form or with an Edit Fields node), and read and store it in that form too.'
						: 'The limits protect the person and your balance from a form that is posted to again and again. Tell the person when to try again (retryAfterSeconds).',
		},
	);
	error.context.refusedBy = rule;
	if (retryAfterSeconds !== undefined) error.context.retryAfterSeconds = retryAfterSeconds;
	return error;
}

function readPolicy(context: OperationContext) {
	const { rules } = context;
	const chosen = context.param<unknown>('allowedDestinations', ['chinaMobile']);
	const allowed = (Array.isArray(chosen) ? chosen : [chosen]).map((kind) =>
		rules.oneOf('allowedDestinations', kind, DESTINATION_KINDS),
	) as DestinationKind[];
	if (allowed.length === 0)
		rules.fail('allowedDestinations', chosen, 'must name at least one kind of number');
	const countryText = allowed.includes('international')
		? (rules.optional('countryCodes', context.param('countryCodes', '')) ?? '')
		: '';
	const countryCodes = countryText
		.split(',')
		.map((code) => code.trim().replace(/^\+/, ''))
		.filter((code) => code !== '');
	if (countryCodes.some((code) => !/^[1-9]\d{0,2}$/.test(code) || code === '86'))
		rules.fail(
			'countryCodes',
			countryText,
			'must be calling codes of 1 to 3 digits separated by commas, other than 86 (mainland China has its own choices)',
		);
	if (allowed.includes('international') && countryCodes.length === 0)
		rules.fail(
			'countryCodes',
			countryText,
			'must list at least one calling code when Allowed Destinations includes other countries and regions',
		);
	return { allowed, countryCodes };
}

function readLimits(context: OperationContext) {
	const { rules } = context;
	return {
		maxPerWindow: Number(
			rules.integerInRange('maxSendsPerNumber', context.param('maxSendsPerNumber', 5), 1, 100),
		),
		windowMinutes: Number(
			rules.integerInRange('sendWindowMinutes', context.param('sendWindowMinutes', 60), 1, 1440),
		),
		cooldownSeconds: Number(
			rules.integerInRange(
				'resendCooldownSeconds',
				context.param('resendCooldownSeconds', 60),
				0,
				3600,
			),
		),
	};
}

/** The code to send: a generated one, or the user's own (checked without ever repeating it). */
function readCode(context: OperationContext): { code: string; alphabet: CodeAlphabet } {
	const source = context.rules.oneOf('codeSource', context.param('codeSource', 'generate'), [
		'generate',
		'own',
	]);
	if (source === 'own') {
		const raw = context.param<unknown>('ownCode', '');
		const code =
			typeof raw === 'string' || typeof raw === 'number' ? normalizeCode(String(raw)) : '';
		const problem = ownCodeProblem(code);
		if (problem)
			throw new NodeOperationError(
				context.executeFunctions.getNode(),
				`Own Code ${problem}. Nothing was sent.`,
				{
					itemIndex: context.itemIndex,
					description: 'The platform reads codes of 4 to 8 letters or digits.',
				},
			);
		return { code, alphabet: alphabetOf(code) };
	}
	const length = Number(
		context.rules.integerInRange('codeLength', context.param('codeLength', 6), 4, 8),
	);
	const alphabet = context.rules.oneOf(
		'codeCharacters',
		context.param('codeCharacters', 'digits'),
		['digits', 'lettersAndDigits'],
	) as CodeAlphabet;
	return { code: generateCode(length, alphabet), alphabet };
}

/** Template data with the code in its placeholder and the other values around it, in order. */
function templateData(context: OperationContext, code: string): string[] {
	const { rules } = context;
	const position = Number(
		rules.integerInRange('codePlaceholder', context.param('codePlaceholder', 1), 1, 20),
	);
	const collection = context.param<{ values?: Array<{ value?: unknown }> }>(
		'otherTemplateValues',
		{},
	);
	const others = (Array.isArray(collection?.values) ? collection.values : []).map((entry, index) =>
		rules.placeholderValue({ name: 'otherTemplateValues', row: index + 1 }, entry?.value),
	);
	if (position > others.length + 1)
		rules.fail(
			'codePlaceholder',
			position,
			`needs values for the ${position - 1} placeholder(s) before it; Other Placeholder Values has ${others.length}`,
		);
	return [...others.slice(0, position - 1), code, ...others.slice(position - 1)];
}

async function deliver(
	context: OperationContext,
	channel: string,
	to: string,
	code: string,
): Promise<IDataObject> {
	const appId = await appIdOf(context);
	if (channel === 'sms') {
		const templateId = context.rules.required('templateId', context.param('templateId'));
		if (!/^\d+$/.test(templateId))
			context.rules.fail('templateId', templateId, 'must be the numeric ID of a template');
		const datas = templateData(context, code);
		const response = await context.request({
			operation: OPERATION,
			method: 'POST',
			path: 'SMS/TemplateSMS',
			body: { to, appId, templateId, datas },
			xml: { root: 'TemplateSMS', listItems: { datas: 'data' } },
		});
		const message = nestedObject(response, 'templateSMS', 'TemplateSMS');
		return {
			smsMessageSid: message.smsMessageSid,
			...withIsoDates({ dateCreated: message.dateCreated }),
			statusCode: response.statusCode,
		};
	}
	const { rules } = context;
	const voice = context.param<IDataObject>('additionalFields', {});
	const body = withoutEmpty({
		appId,
		to,
		displayNum: rules.optionalPhoneNumber('displayNum', voice.displayNum),
		playTimes:
			voice.playTimes !== undefined
				? rules.integerInRange('playTimes', voice.playTimes, 1, 3)
				: undefined,
		respUrl: rules.url('respUrl', voice.respUrl),
		userData: rules.userData('userData', voice.userData),
		welcomePrompt: rules.wavFile('welcomePrompt', voice.welcomePrompt),
		maxCallTime:
			voice.maxCallTime !== undefined
				? rules.integerInRange('maxCallTime', voice.maxCallTime, 1, Number.MAX_SAFE_INTEGER)
				: undefined,
		verifyCode: code,
	});
	const response = await context.request({
		operation: OPERATION,
		method: 'POST',
		path: 'Calls/VoiceVerify',
		body,
		xml: { root: 'VoiceVerify' },
	});
	const call = nestedObject(response, 'VoiceVerify');
	return {
		callSid: call.callSid,
		...withIsoDates({ dateCreated: call.dateCreated }),
		statusCode: response.statusCode,
	};
}

/**
 * Send Code: the guards first (number form, allow-list, cooldown, limit per number), then a code,
 * its sealed verification, and the call or SMS. Nothing is sent that a guard refuses; the code
 * leaves n8n only in the request to the platform.
 */
export async function sendCode(context: OperationContext): Promise<OperationOutput[]> {
	const { rules } = context;
	const channel = rules.oneOf('channel', context.param('channel', 'voice'), ['voice', 'sms']);
	const to = rules.required('to', context.param('to'));
	const destination = destinationOf(to, channel as 'voice' | 'sms', readPolicy(context));
	if (!destination.allowed) throw refusal(context, destination.rule, destination.reason);

	const limits = readLimits(context);
	const storedSends = context.param<unknown>('recentSends', '');
	const recent =
		readRecentSends(storedSends) ??
		rules.fail(
			'recentSends',
			storedSends,
			'must be the recentSends Send Code stored for this number (ISO times separated by commas), or empty',
		);
	const now = Date.now();
	const allowance = allowSend(to, recent, limits, now);
	if (!allowance.allowed)
		throw refusal(context, allowance.rule, allowance.reason, allowance.retryAfterSeconds);

	const validMinutes = Number(
		rules.integerInRange('validMinutes', context.param('validMinutes', 10), 1, 60),
	);
	const maxAttempts = Number(
		rules.integerInRange('maxAttempts', context.param('maxAttempts', 5), 1, 10),
	);
	const includeCode = context.param<unknown>('includeCode', false) === true;
	const keys = await signingKeys(context);
	const { code, alphabet } = readCode(context);

	let sent: IDataObject;
	try {
		sent = await deliver(context, channel, to, code);
	} catch (error) {
		throw withCodeHidden(error, code);
	}

	const id = randomBytes(12).toString('base64url');
	const expiresAt = now + validMinutes * 60_000;
	const verification = sealVerification(keys.seal, {
		id,
		to,
		issuedAt: now,
		expiresAt,
		maxAttempts,
		length: code.length,
		alphabet,
		digest: codeDigest(keys.code, id, code),
	});
	return [
		{
			json: {
				status: 'sent',
				channel,
				to,
				verificationId: id,
				expiresAt: new Date(expiresAt).toISOString(),
				codeLength: code.length,
				maxAttempts,
				...sent,
				verification,
				record: {
					to,
					verification,
					attempts: 0,
					used: false,
					lastStatus: 'sent',
					recentSends: allowance.recentSends,
				},
				...(includeCode ? { code } : {}),
			},
		},
	];
}
