import type { INodeProperties } from 'n8n-workflow';

import { OPERATIONS, RESOURCES, resourceProperties, resourceSelector } from '../../resources';
import { placedAt } from '../../resources/displayRules';
import type { OperationDefinition } from '../../resources/types';
import { notForToolsNotice } from '../asTool/notForTools';
import { fieldLabelsAt, type FieldLabels, type FormPlace } from '../../validation/fieldLabels';
import { parallelRequestsFields } from '../concurrency/parallelRequests';
import { bodyFormatField, requestTimeoutField } from './requestSettings';

const byLabel = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);

/**
 * One Options collection per operation, last in the form, holding the operation's own options and
 * the settings of the run, in alphabetical order; none for an operation that sends nothing and has
 * no options of its own.
 */
function optionsCollections(): INodeProperties[] {
	const settings = [bodyFormatField, ...parallelRequestsFields(), requestTimeoutField];
	return OPERATIONS.flatMap(({ resource, operation }) => {
		const options = [...(operation.options ?? []), ...(operation.sendsNothing ? [] : settings)];
		if (options.length === 0) return [];
		return [
			placedAt(
				{
					displayName: 'Options',
					name: 'options',
					type: 'collection',
					placeholder: 'Add Option',
					default: {},
					options: options.sort(byLabel),
				},
				resource.value,
				[operation.value],
			),
		];
	});
}

/** What the form shows first for an operation: the notice on the tool variant when it refuses to run there. */
const leadingFields = (operation: OperationDefinition) => notForToolsNotice(operation);

/**
 * The action node's form: Resource, each resource's fields, then `middle` (Wait for Call Result's
 * fields, which live above this layer), then Options.
 */
export function formProperties(middle: INodeProperties[] = []): INodeProperties[] {
	return [
		resourceSelector,
		...RESOURCES.flatMap((resource) => resourceProperties(resource, leadingFields)),
		...middle,
		...optionsCollections(),
	];
}

const labelsByPlace = new Map<string, FieldLabels>();

/** The labels of the form at one operation, for error messages; built once per place. */
export function formLabels(place: FormPlace): FieldLabels {
	const key = `${place.resource}/${place.operation}`;
	let labels = labelsByPlace.get(key);
	if (!labels) {
		labels = fieldLabelsAt(formProperties(), place);
		labelsByPlace.set(key, labels);
	}
	return labels;
}
