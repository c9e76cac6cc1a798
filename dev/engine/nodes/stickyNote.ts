import type { INodeType, INodeTypeDescription } from 'n8n-workflow';

export const STICKY_NOTE_TYPE = 'n8n-nodes-base.stickyNote';

/**
 * Stand-in for n8n-nodes-base's Sticky Note: a note on the canvas, with no inputs or outputs, that
 * never runs. Exported workflows carry them as nodes, so the harness must know the type to load one.
 */
export class StickyNote implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Sticky Note',
		name: 'stickyNote',
		icon: 'fa:sticky-note',
		group: ['input'],
		version: 1,
		description: 'Make your workflow easier to understand',
		defaults: { name: 'Sticky Note' },
		inputs: [],
		outputs: [],
		properties: [
			{ displayName: 'Content', name: 'content', type: 'string', default: '' },
			{ displayName: 'Height', name: 'height', type: 'number', default: 160 },
			{ displayName: 'Width', name: 'width', type: 'number', default: 240 },
			{ displayName: 'Color', name: 'color', type: 'number', default: 1 },
		],
	};
}
