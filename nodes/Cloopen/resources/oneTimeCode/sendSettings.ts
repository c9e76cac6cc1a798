import { NodeOperationError } from 'n8n-workflow';

import { alphabetOf, normalizeCode, ownCodeProblem } from './rules/codeFormat';
import type { DestinationKind } from './rules/destinations';
import { generateCode, type CodeAlphabet } from './rules/generateCode';
import type { SendCap } from './rules/sendCap';
import type { OperationContext } from '../types';

const DESTINATION_KINDS: DestinationKind[] = ['chinaMobile', 'chinaLandline', 'international'];

export function readPolicy(context: OperationContext) {
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

/** A whole-number field within the range its form gives it. */
const wholeNumber = (context: OperationContext, name: string, fallback: number) =>
	Number(context.rules.wholeNumber(name, context.param(name, fallback)));

export function readLimits(context: OperationContext) {
	return {
		maxPerWindow: wholeNumber(context, 'maxSendsPerNumber', 5),
		windowMinutes: wholeNumber(context, 'sendWindowMinutes', 60),
		cooldownSeconds: wholeNumber(context, 'resendCooldownSeconds', 60),
	};
}

/** The settings of the code itself, the same whichever store keeps the counts. */
export function readCodeSettings(context: OperationContext) {
	return {
		validMinutes: wholeNumber(context, 'validMinutes', 10),
		maxAttempts: wholeNumber(context, 'maxAttempts', 5),
		includeCode: context.param<unknown>('includeCode', false) === true,
	};
}

/** The code to send: a generated one, or the user's own (checked without ever repeating it). */
export function readCode(context: OperationContext): { code: string; alphabet: CodeAlphabet } {
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
	const length = wholeNumber(context, 'codeLength', 6);
	const alphabet = context.rules.oneOf(
		'codeCharacters',
		context.param('codeCharacters', 'digits'),
		['digits', 'lettersAndDigits'],
	) as CodeAlphabet;
	return { code: generateCode(length, alphabet), alphabet };
}

/** Template data with the code in its placeholder and the other values around it, in order. */
export function templateData(context: OperationContext, code: string): string[] {
	const { rules } = context;
	const position = wholeNumber(context, 'codePlaceholder', 1);
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

/** The cap for all numbers together (Data Table only). */
export function readCap(context: OperationContext): SendCap {
	return {
		perHour: wholeNumber(context, 'maxCodesPerHour', 100),
		perCountryPerHour: wholeNumber(context, 'maxCodesPerCountryPerHour', 10),
	};
}

/** The calling code a number outside mainland China starts with, of those allowed; undefined inside. */
export function countryCodeOf(number: string, allowed: string[]): string | undefined {
	if (!number.startsWith('+')) return undefined;
	return allowed.find((code) => number.startsWith(`+${code}`)) ?? number.slice(1, 4);
}
