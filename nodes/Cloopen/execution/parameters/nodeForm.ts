import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { RESOURCES } from '../../resources';
import { showFor } from '../../resources/fields';
import type { ResourceDefinition } from '../../resources/types';
import { fieldLabelsAt, type FieldLabels, type FormPlace } from '../../validation/fieldLabels';
import { parallelRequestsFields } from '../concurrency/parallelRequests';
import { bodyFormatField, requestTimeoutField } from './requestSettings';

const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	default: 'voiceVerification',
	options: RESOURCES.map(({ name, value, description }) => ({ name, value, description })),
};

/** Version 1: the settings of the run at the top level, shown for every operation. */
const version1Settings: INodeProperties[] = [
	bodyFormatField,
	...parallelRequestsFields(false),
	requestTimeoutField,
].map((field) => ({
	...field,
	displayOptions: {
		...field.displayOptions,
		show: { ...field.displayOptions?.show, '@version': [1] },
	},
}));

const byLabel = (a: INodeProperties, b: INodeProperties) =>
	a.displayName.localeCompare(b.displayName);

const operationsOf = (resource: ResourceDefinition): string[] =>
	resource.properties
		.filter((property) => property.name === 'operation')
		.flatMap((property) => (property.options ?? []) as INodePropertyOptions[])
		.map((option) => String(option.value));

/**
 * From version 2 on: one Options collection per operation, last in the form, holding the
 * operation's own options and the settings of the run, in alphabetical order.
 */
function version2Options(resources: ResourceDefinition[]): INodeProperties[] {
	const settings = [bodyFormatField, ...parallelRequestsFields(true), requestTimeoutField];
	return resources.flatMap((resource) =>
		operationsOf(resource).map((operation): INodeProperties => ({
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			displayOptions: showFor(resource.value, [operation], 'fromVersion2'),
			options: [...(resource.options?.[operation] ?? []), ...settings].sort(byLabel),
		})),
	);
}

/**
 * The action node's form: Resource, each resource's fields, then `middle` (Wait for Call Result's
 * fields, which live above this layer), then the run's settings (version 1) or Options (version 2).
 */
export function formProperties(middle: INodeProperties[] = []): INodeProperties[] {
	return [
		resourceProperty,
		...RESOURCES.flatMap((resource) => resource.properties),
		...middle,
		...version1Settings,
		...version2Options(RESOURCES),
	];
}

const labelsByPlace = new Map<string, FieldLabels>();

/** The labels of the form at one operation and version, for error messages; built once per place. */
export function formLabels(place: FormPlace): FieldLabels {
	const key = `${place.version}/${place.resource}/${place.operation}`;
	let labels = labelsByPlace.get(key);
	if (!labels) {
		labels = fieldLabelsAt(formProperties(), place);
		labelsByPlace.set(key, labels);
	}
	return labels;
}
