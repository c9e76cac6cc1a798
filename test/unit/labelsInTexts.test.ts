import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { CloopenApi } from '../../credentials/CloopenApi.credentials';
import { Cloopen } from '../../nodes/Cloopen/Cloopen.node';
import { OPERATIONS } from '../../nodes/Cloopen/resources';
import { labelsAt, type FormPlace } from '../../nodes/Cloopen/validation/fieldLabels';
import { describeStatusCode } from '../../nodes/shared/platform/statusCodes';

/**
 * The form's words name fields by the labels the user sees: every description, hint and notice shown
 * at an operation, and every hint of a platform statusCode at every operation
 * that sends, names only fields that exist there (or in the credentials). A field is recognised by
 * its label anywhere in the node, of two words or more ("Template Data", "Max Wait (Minutes)", also
 * without its unit: "Max Wait"); one-word labels (To, Text, Date) are ordinary words too.
 */
const description = new Cloopen().description;
const credentialLabels = new CloopenApi().properties.map((property) => property.displayName);

type Choice = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** A label and its form without a trailing unit in brackets. */
const spellings = (label: string) => [label, label.replace(/\s*\([^)]*\)$/, '')];

/** Every field label of a property: its own, a collection's fields, a fixed collection's values. */
function fieldLabelsOf(property: Choice): string[] {
	if ('type' in property && property.type === 'notice') return [];
	const own = 'displayName' in property ? [property.displayName] : [];
	const nested = ('options' in property ? (property.options ?? []) : []) as Choice[];
	const values = ('values' in property ? property.values : []) as Choice[];
	const children = [...nested, ...values].filter(
		(child) => 'displayName' in child || 'values' in child,
	);
	return [...own, ...children.flatMap(fieldLabelsOf)];
}

/** Every text a property shows: descriptions, hints, a notice's words, and those of its choices and fields. */
function textsOf(property: Choice): string[] {
	const own = [
		'description' in property ? property.description : undefined,
		'hint' in property ? property.hint : undefined,
		'type' in property && property.type === 'notice' ? property.displayName : undefined,
	];
	const nested = ('options' in property ? (property.options ?? []) : []) as Choice[];
	const values = ('values' in property ? property.values : []) as Choice[];
	return [
		...own.filter((text): text is string => typeof text === 'string' && text !== ''),
		...[...nested, ...values].flatMap(textsOf),
	];
}

/** "Resource → Operation" as texts write it: a field of that operation may be named after it. */
const OPERATION_NAMES = OPERATIONS.map(({ resource, operation }) => ({
	written: `${resource.name} → ${operation.name}`,
	short: operation.name,
	resource: resource.value,
	operation: operation.value,
}));

/** Labels of two words or more, wherever in the node they are: what a text can name a field by. */
const LABELS = [
	...new Set(
		[...description.properties.flatMap(fieldLabelsOf), ...credentialLabels]
			.flatMap(spellings)
			.filter((label) => label.trim().split(/\s+/).length >= 2),
	),
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The node's labels a text names (whole words, as written). */
const labelsNamedIn = (text: string) =>
	LABELS.filter((label) => new RegExp(`(?<![\\w-])${escape(label)}(?![\\w-])`).test(text));

/** Whether the property belongs at this place (conditions on other fields taken as met, as labelsAt does). */
const atPlace = (property: INodeProperties, place: FormPlace) =>
	labelsAt([{ ...property, type: 'string' }], place).size > 0;

const PLACES: Array<FormPlace & { label: string; sends: boolean }> = OPERATIONS.map(
	({ resource, operation }) => ({
		resource: resource.value,
		operation: operation.value,
		label: `${resource.name} → ${operation.name}`,
		sends: operation.sendsNothing !== true,
	}),
);

/** The labels a text at this place may name: the fields shown there (all of them, any value of the others) and the credentials'. */
function labelsHere(place: FormPlace): Set<string> {
	const shown = description.properties.filter((property) => atPlace(property, place));
	return new Set([...shown.flatMap(fieldLabelsOf), ...credentialLabels].flatMap(spellings));
}

/** The distinct hints of the platform's documented statusCodes (all between 100000 and 199999), with their codes. */
const STATUS_HINTS = (() => {
	const hints = new Map<string, string[]>();
	for (let code = 100_000; code <= 199_999; code++) {
		const { hint, known } = describeStatusCode(String(code));
		if (known && hint) hints.set(hint, [...(hints.get(hint) ?? []), String(code)]);
	}
	return hints;
})();

/** An SMS code's hint (112300 to 112399) reaches the operations that text: those with a Template ID. */
const isSmsCode = (code: string) => code.startsWith('1123');

/** The operations a text refers to ("Call → Get State and Get Result" refers to both). */
function operationsReferredIn(text: string): Array<{ resource: string; operation: string }> {
	const referred = OPERATION_NAMES.filter(({ written }) => text.includes(written));
	const resources = new Set(referred.map(({ resource }) => resource));
	const sameResource = OPERATION_NAMES.filter(
		({ resource, short }) =>
			resources.has(resource) && new RegExp(`(?:and|or) ${escape(short)}\\b`).test(text),
	);
	return [...referred, ...sameResource];
}

/** The labels a text at this place names that neither this place nor an operation it refers to has. */
function strangersIn(text: string, place: FormPlace, here: Set<string>) {
	const referred = operationsReferredIn(text).map(labelsHere);
	return labelsNamedIn(text)
		.filter((label) => !here.has(label) && !referred.some((labels) => labels.has(label)))
		.map((label) => ({ label, text }));
}

describe.each(PLACES)('$label', (place) => {
	const here = labelsHere(place);
	const texts = [
		...new Set(
			description.properties.filter((property) => atPlace(property, place)).flatMap(textsOf),
		),
	];

	it('every field a description, hint or notice names by its label is a field of this operation, or of one it refers to', () => {
		expect(texts.flatMap((text) => strangersIn(text, place, here))).toEqual([]);
	});

	if (here.has('Template ID'))
		it("the hints of SMS statusCodes name only this operation's fields", () => {
			const smsHints = [...STATUS_HINTS].filter(([, codes]) => codes.some(isSmsCode));
			expect(smsHints.flatMap(([hint]) => strangersIn(hint, place, here))).toEqual([]);
		});
});

it("every field a statusCode's hint names is a field of an operation that sends", () => {
	const sending = PLACES.filter((place) => place.sends).map(labelsHere);
	const named = [...STATUS_HINTS.keys()].flatMap((hint) =>
		labelsNamedIn(hint).map((label) => ({ label, hint })),
	);
	expect(named.filter(({ label }) => !sending.some((labels) => labels.has(label)))).toEqual([]);
	// Not vacuous: hints do name fields.
	expect(named.map(({ label }) => label)).toEqual(
		expect.arrayContaining(['App ID', 'Friendly Name', 'Template ID']),
	);
});

it('the check sees labels: the texts name fields, among them the ones this test was written for', () => {
	const named = new Set(description.properties.flatMap(textsOf).flatMap(labelsNamedIn));
	expect([...named]).toEqual(
		expect.arrayContaining([
			'Result URL',
			'Wait for Call Result',
			'Max Wait',
			'Max Codes per Number',
		]),
	);
	expect(LABELS).toEqual(expect.arrayContaining(['Template Data', 'Other Placeholder Values']));
	// A label used where its field is missing is found: Template Data at One-Time Code → Send.
	const send: FormPlace = { resource: 'oneTimeCode', operation: 'send' };
	expect(labelsHere(send).has('Other Placeholder Values')).toBe(true);
	expect(labelsHere(send).has('Template Data')).toBe(false);
	expect(labelsNamedIn('Add one Template Data value per placeholder.')).toEqual(['Template Data']);
});
