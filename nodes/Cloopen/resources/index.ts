import type { INodeProperties } from 'n8n-workflow';

import { account } from './account';
import { billRecords } from './billRecords';
import { call } from './call';
import { withDestinationGuard } from './destinationGuard';
import { placedAt } from './displayRules';
import { oneTimeCode } from './oneTimeCode';
import { sms } from './sms';
import { subAccount } from './subAccount';
import type { OperationDefinition, ResourceDefinition } from './types';
import { voiceNotification } from './voiceNotification';
import { voiceVerification } from './voiceVerification';

/** In the order the Resource list shows them (alphabetical, as n8n's lint asks). */
export const RESOURCES: ResourceDefinition[] = [
	account,
	billRecords,
	call,
	oneTimeCode,
	sms,
	subAccount,
	voiceNotification,
	voiceVerification,
];

/** The Resource selector; a new node starts on Voice Verification, the platform's best-known service. */
export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	default: 'voiceVerification',
	options: RESOURCES.map(({ name, value, description }) => ({ name, value, description })),
};

/** One operation with the resource it belongs to. */
export interface PlacedOperation {
	resource: ResourceDefinition;
	operation: OperationDefinition;
}

/**
 * Every operation of the node: what tests and the run's tables go over, so a new one is covered. Each
 * runs the account's destination rule first when a field of it reaches a person (destinationGuard.ts).
 */
export const OPERATIONS: PlacedOperation[] = RESOURCES.flatMap((resource) =>
	resource.operations.map((operation) => ({
		resource,
		operation: withDestinationGuard(operation),
	})),
);

export function findOperation(resource: string, operation: string): PlacedOperation | undefined {
	return OPERATIONS.find(
		(entry) => entry.resource.value === resource && entry.operation.value === operation,
	);
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

/** A resource's Operation selector (n8n's usual shape: no expressions, options in alphabetical order). */
function operationSelector(resource: ResourceDefinition): INodeProperties {
	const firstShown = resource.defaultOperation;
	return placedAt(
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			default: firstShown,
			options: [...resource.operations]
				.sort(byName)
				.map(({ name, value, action, description }) => ({ name, value, action, description })),
		},
		resource.value,
	);
}

/**
 * A resource's part of the form: its Operation selector, its notices, then each operation's fields
 * placed at that resource and operation (the display rules every field needs, applied here once).
 * `leading` gives fields the layers above put first in an operation's fields (a notice for tools).
 */
export function resourceProperties(
	resource: ResourceDefinition,
	leading: (operation: OperationDefinition) => INodeProperties[] = () => [],
): INodeProperties[] {
	return [
		operationSelector(resource),
		...(resource.notices ?? []).map((notice) => placedAt(notice, resource.value)),
		...resource.operations.flatMap((operation) =>
			[...leading(operation), ...operation.fields].map((field) =>
				placedAt(field, resource.value, [operation.value]),
			),
		),
	];
}
