import type { ResourceDefinition } from '../types';
import { close } from './close';
import { create } from './create';
import { getAll } from './getAll';
import { getByName } from './getByName';

export const subAccount: ResourceDefinition = {
	name: 'Sub-Account',
	value: 'subAccount',
	description: 'Accounts for your own customers, each with its own communication account',
	defaultOperation: 'create',
	operations: [create, getByName, getAll, close],
};
