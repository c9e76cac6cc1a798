/**
 * State kept per trigger (a workflow's Cloopen Trigger node), in the memory of this n8n process:
 * each trigger has its own, so a flood on one webhook cannot push out what another remembers. At
 * most MAX_TRIGGERS are kept; beyond that the one that received nothing for the longest is forgotten.
 */
export const MAX_TRIGGERS = 50;

/** The key of a trigger: its workflow's id and its node's id. */
export const triggerScope = (workflowId: string | undefined, nodeId: string) =>
	`${workflowId ?? ''}/${nodeId}`;

export class PerTrigger<State> {
	/** A Map keeps insertion order; touching a trigger moves it to the end (least recently used first). */
	private readonly states = new Map<string, State>();

	constructor(private readonly create: () => State) {}

	of(scope: string): State {
		let state = this.states.get(scope);
		if (state === undefined) state = this.create();
		else this.states.delete(scope);
		this.states.set(scope, state);
		while (this.states.size > MAX_TRIGGERS)
			this.states.delete(this.states.keys().next().value as string);
		return state;
	}

	/** How many triggers have state now (for tests of the bound). */
	get size(): number {
		return this.states.size;
	}
}
