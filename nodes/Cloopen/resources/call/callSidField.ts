import type { INodeProperties } from 'n8n-workflow';

/** The call both operations of the Call resource ask about. */
export const callSidField: INodeProperties = {
	displayName: 'Call SID',
	name: 'callSid',
	type: 'string',
	default: '',
	required: true,
	placeholder: '1307241452320369000100030000002f',
	description: 'The callSid returned by a voice verification or voice notification',
};
