import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/** A field as the form shows it, so that an error names it in the user's words. */
export interface FieldLabel {
	/** What the form shows, e.g. "Play Times". */
	label: string;
	/** The parameter's name, e.g. "playTimes". */
	name: string;
	/** The collection it sits in, e.g. "Additional Fields". */
	within?: string;
	/** What a number field lets the form take (its typeOptions minValue and maxValue). */
	range?: { min: number; max: number };
}

/** A number field's range as the form declares it; a side it leaves open is any safe integer. */
function rangeOf(property: INodeProperties): FieldLabel['range'] {
	if (property.type !== 'number') return undefined;
	const { minValue, maxValue } = property.typeOptions ?? {};
	if (minValue === undefined && maxValue === undefined) return undefined;
	return {
		min: minValue ?? Number.MIN_SAFE_INTEGER,
		max: maxValue ?? Number.MAX_SAFE_INTEGER,
	};
}

/** Where in the node a form is read: one operation of one resource. */
export interface FormPlace {
	resource: string;
	operation: string;
}

/** The field's label at this place, or, for a name the form does not have, the name itself. */
export type FieldLabels = (name: string) => FieldLabel;

type Condition = NonNullable<IDisplayOptions['show']>[string];

const meets = (condition: Condition, value: string) =>
	(condition ?? []).some((entry) => entry === value);

/**
 * Whether the form has this field at this place. Only the resource and the operation are known here; a condition on another field's value (Content, Return All, …) is taken as met, so
 * a field counts wherever some value of the others shows it.
 */
function shownAt(displayOptions: IDisplayOptions | undefined, place: FormPlace): boolean {
	const known: Record<string, string> = {
		resource: place.resource,
		'/resource': place.resource,
		operation: place.operation,
		'/operation': place.operation,
	};
	for (const [key, condition] of Object.entries(displayOptions?.show ?? {})) {
		if (key in known && !meets(condition as Condition, known[key])) return false;
	}
	for (const [key, condition] of Object.entries(displayOptions?.hide ?? {})) {
		if (key in known && meets(condition, known[key])) return false;
	}
	return true;
}

/**
 * The labels of every field the form shows at this place, by parameter name, with the collection a
 * field sits in. A name that two fields at one place share must carry one label, or an error could
 * name the wrong one: that is a mistake in the form, and fails here.
 */
export function labelsAt(properties: INodeProperties[], place: FormPlace): Map<string, FieldLabel> {
	const labels = new Map<string, FieldLabel>();
	const add = (entry: FieldLabel) => {
		const known = labels.get(entry.name);
		if (known && known.label !== entry.label) {
			throw new Error(
				`The form names "${entry.name}" both "${known.label}" and "${entry.label}" at ${place.resource}/${place.operation}`,
			);
		}
		if (!known) labels.set(entry.name, entry);
	};
	for (const property of properties) {
		if (property.type === 'notice' || !shownAt(property.displayOptions, place)) continue;
		add({ label: property.displayName, name: property.name, range: rangeOf(property) });
		if (property.type !== 'collection') continue;
		for (const child of (property.options ?? []) as INodeProperties[]) {
			if (shownAt(child.displayOptions, place))
				add({
					label: child.displayName,
					name: child.name,
					within: property.displayName,
					range: rangeOf(child),
				});
		}
	}
	return labels;
}

/** A lookup over labelsAt that falls back to the name for anything the form does not show. */
export function fieldLabelsAt(properties: INodeProperties[], place: FormPlace): FieldLabels {
	const labels = labelsAt(properties, place);
	return (name) => labels.get(name) ?? { label: name, name };
}
