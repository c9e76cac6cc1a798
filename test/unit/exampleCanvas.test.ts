import {
	exampleFiles,
	importExample,
	nodesThatRun,
	STICKY_NOTE_TYPE,
	type ExampleNode,
} from '../../dev/examples';

/**
 * What a user sees on opening an example: no sticky note covers a node or its label. The canvas of
 * n8n 2.41 draws a node from its position (top-left) at its size, and its label (name, two lines at
 * most, and subtitle) centred below it, twice the node's width (the editor's CSS: `min-width:
 * calc(var(--canvas-node--width) * 2)`, `top: 100%`). Measured there (the alert example, zoomed to
 * fit): a node 96 wide, its label 192 wide and 61 high (two lines of name and a subtitle) starting 6
 * below it. Sizes here are rounded up: a node 100 × 100, a sub-node of an AI Agent (model, tool)
 * 80 × 80, the AI Agent 256 × 100; a label 70 high, 8 below.
 */
interface Rectangle {
	left: number;
	top: number;
	right: number;
	bottom: number;
}

const LABEL_HEIGHT = 70;
const LABEL_GAP = 8;

/** Sub-nodes: what an AI Agent connects below it (its chat model, its tools). */
const isSubNode = (node: ExampleNode) => /\.lmChat|Tool$/.test(node.type);
const isAgent = (node: ExampleNode) => node.type === '@n8n/n8n-nodes-langchain.agent';

function sizeOf(node: ExampleNode): [number, number] {
	if (isAgent(node)) return [256, 100];
	if (isSubNode(node)) return [80, 80];
	return [100, 100];
}

const positionOf = (node: ExampleNode) => node.position as [number, number];

function bodyOf(node: ExampleNode): Rectangle {
	const [x, y] = positionOf(node);
	const [width, height] = sizeOf(node);
	return { left: x, top: y, right: x + width, bottom: y + height };
}

function labelOf(node: ExampleNode): Rectangle {
	const body = bodyOf(node);
	const width = 2 * (body.right - body.left);
	const centre = (body.left + body.right) / 2;
	const top = body.bottom + LABEL_GAP;
	return { left: centre - width / 2, top, right: centre + width / 2, bottom: top + LABEL_HEIGHT };
}

function stickyOf(node: ExampleNode): Rectangle {
	const [x, y] = positionOf(node);
	const width = Number(node.parameters.width ?? 240);
	const height = Number(node.parameters.height ?? 160);
	return { left: x, top: y, right: x + width, bottom: y + height };
}

const overlap = (a: Rectangle, b: Rectangle) =>
	a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe.each(exampleFiles())('examples/%s', (file) => {
	const workflow = importExample(file);
	const stickies = workflow.nodes.filter((node) => node.type === STICKY_NOTE_TYPE);

	it('no sticky note covers a node or its label', () => {
		const covered = stickies.flatMap((sticky) =>
			nodesThatRun(workflow)
				.filter(
					(node) =>
						overlap(stickyOf(sticky), bodyOf(node)) || overlap(stickyOf(sticky), labelOf(node)),
				)
				.map((node) => `${sticky.name} covers ${node.name}`),
		);
		expect(covered).toEqual([]);
	});
});

it('the check finds a sticky over a label: the alert example as it was, its note reaching 20 px into the labels', () => {
	const node = { name: 'Trigger', type: 'x', parameters: {}, position: [0, 0] };
	const sticky = {
		name: 'Note',
		type: STICKY_NOTE_TYPE,
		parameters: { width: 620, height: 620 },
		position: [-40, -500],
	};
	expect(overlap(stickyOf(sticky), bodyOf(node))).toBe(true);
	expect(overlap(stickyOf({ ...sticky, position: [-40, -508] }), labelOf(node))).toBe(true);
	expect(overlap(stickyOf({ ...sticky, position: [-40, -660] }), labelOf(node))).toBe(false);
	// Below: the label reaches 178 px under a 100 px node.
	expect(overlap(stickyOf({ ...sticky, position: [-40, 170] }), labelOf(node))).toBe(true);
	expect(overlap(stickyOf({ ...sticky, position: [-40, 180] }), labelOf(node))).toBe(false);
});
