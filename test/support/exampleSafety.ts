import {
	CLOOPEN_NODE_TYPE,
	nodesThatRun,
	type ExampleNode,
	type ExampleWorkflow,
} from '../../dev/examples';
import { OPERATION_CASES } from '../engine/operationCases';

/**
 * What "an example cannot reach a person as imported" is checked against, for the engine and the
 * real-n8n tests alike.
 */

/** The endpoints at which the platform dials or texts someone (docs/platform.md#endpoints). */
const PATHS_REACHING_A_PERSON = ['Calls/VoiceVerify', 'Calls/LandingCalls/', 'SMS/TemplateSMS'];

/** The paths of the requests that would have dialled or texted someone. */
export function requestsReachingAPerson(requests: Array<{ path: string }>): string[] {
	const endings = PATHS_REACHING_A_PERSON.map((path) => `/${path.replace(/\/$/, '')}`);
	return requests
		.map((request) => request.path.replace(/\/$/, ''))
		.filter((path) => endings.some((ending) => path.endsWith(ending)));
}

/** "resource:operation" of every operation that dials or texts: those whose request goes to such a path. */
export const OPERATIONS_REACHING_A_PERSON = new Set(
	OPERATION_CASES.filter((operationCase) =>
		PATHS_REACHING_A_PERSON.includes(operationCase.path),
	).map(
		(operationCase) =>
			`${String(operationCase.parameters.resource)}:${String(operationCase.parameters.operation)}`,
	),
);

const CLOOPEN_TYPES = [CLOOPEN_NODE_TYPE, `${CLOOPEN_NODE_TYPE}Tool`];

/** The example's Cloopen nodes (action node and its AI-tool variant). */
export const cloopenNodes = (workflow: ExampleWorkflow) =>
	nodesThatRun(workflow).filter((node) => CLOOPEN_TYPES.includes(node.type));

/** The Cloopen nodes that dial or text. */
export const nodesReachingAPerson = (workflow: ExampleWorkflow) =>
	cloopenNodes(workflow).filter((node) =>
		OPERATIONS_REACHING_A_PERSON.has(
			`${String(node.parameters.resource)}:${String(node.parameters.operation)}`,
		),
	);

/** A placeholder the node refuses as a number: the user must replace it before anything is sent. */
const PLACEHOLDER_NUMBER = /^YOUR_[A-Z]+(?:_[A-Z]+)*$/;

/** The nodes a run starts from: what they emit is the event (a request, a chat, a notification). */
const triggerNames = (workflow: ExampleWorkflow) =>
	nodesThatRun(workflow)
		.filter((node) => /trigger|webhook/i.test(node.type))
		.map((node) => node.name);

/** An expression that takes the number from the event that started the run (a request, a chat). */
function fromTheEvent(to: string, workflow: ExampleWorkflow): boolean {
	if (!/^=\{\{.*\}\}$/s.test(to)) return false;
	if (/\$json\b|\$fromAI\(/.test(to)) return true;
	return triggerNames(workflow).some(
		(name) => to.includes(`$('${name}')`) || to.includes(`$node["${name}"]`),
	);
}

/**
 * Why a node's To may reach someone the user never chose, or undefined: To must be a placeholder,
 * or come from the event that started the run, and hold no digits of its own.
 */
export function toProblem(to: unknown, workflow: ExampleWorkflow): string | undefined {
	if (typeof to !== 'string') return `To is ${JSON.stringify(to)}`;
	if (/\d{5,}/.test(to)) return `To holds a number of its own: ${to}`;
	if (PLACEHOLDER_NUMBER.test(to) || fromTheEvent(to, workflow)) return undefined;
	return `To is neither a placeholder nor taken from the event that started the run: ${to}`;
}

/** A mainland mobile number written into a node (not part of a longer hex id such as a callSid). */
export const MOBILE_NUMBER = /(?<![\dA-Fa-f])(?:\+?86)?1[3-9]\d{9}(?![\dA-Fa-f])/g;

/**
 * How many calls or SMS forged posts to an example published as shipped may place, by the limits its
 * note states: one per number for One-Time Code → Send with the counts kept by the node (its resend
 * cooldown, "one a minute", holds while the posts last), none for any other node (as shipped its To
 * is a placeholder, or its webhook refuses what it cannot authenticate). `numbers`: how many
 * different numbers the posts name.
 */
export function sendsAllowedToForgedPosts(workflow: ExampleWorkflow, numbers: number): number {
	const limited = (node: ExampleNode) =>
		node.parameters.resource === 'oneTimeCode' &&
		node.parameters.operation === 'send' &&
		Number(node.parameters.resendCooldownSeconds ?? 60) >= 60;
	return nodesReachingAPerson(workflow).filter(limited).length * numbers;
}
