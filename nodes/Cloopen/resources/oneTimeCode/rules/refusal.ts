/** A request refused by a rule or by the store: nothing was written and nothing sent. */
export interface Refusal {
	rule: string;
	reason: string;
	retryAfterSeconds: number;
}
