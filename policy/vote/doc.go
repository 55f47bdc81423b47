// Package vote is the penalty-vote selector of Tavana et al.'s adaptive
// inter-GPU link compression (§V of the paper; linecomp's model-spec §6):
// it chooses, for every line a GPU sends, which of an ordered list of
// candidate codecs carries it.
//
// # The state machine
//
// A [Selector] alternates a sampling phase of Samples transfers (7) and a
// running phase of Running transfers (300), starting with sampling.
//
// In the sampling phase every candidate i is priced for the transfer's line
// with the penalty of the paper's Eq. (1),
//
//	P_i = float64(Size_i) + λ·float64(Lc_i + Ld_i)
//
// where Size_i is the exact length in bits of candidate i's encoding (tag
// bits included: they travel in the payload) and Lc_i, Ld_i are its
// compression and decompression latencies in cycles. The candidate with the
// least P wins the transfer (ties go to the lower index), gets one vote, and
// carries that transfer [ours: the paper does not say which codec carries a
// sampled transfer; the winner is the one it has just computed].
//
// At the end of the sampling phase the candidate with the most votes is
// selected if it has at least MinVotes (3) votes. A tie in votes goes to the
// candidate with the smaller sum of its P over all the phase's samples, won
// or not (summed in float64 in sample order), then to the lower index. If no
// candidate has MinVotes votes, the previous selection stays [ours]; the
// first selection is index 0, conventionally "none".
//
// In the running phase every transfer is carried by the selection, whatever
// its line: no codec runs, so Choose costs a few counter updates.
//
// # The 7-of-300 reading
//
// The paper says both "we sample seven data transfers" before a running
// phase of 300 requests (§VII-A2) and "7 samples for every 300 transactions"
// (§V). The default, [SampleThenRun], is the first reading: a period is
// Samples + Running transfers (307). [SampleWithinRun] is the second: a
// period is Running transfers of which the first Samples are sampled (7 of
// every 300, a running phase of 293). Both exist because the paper supports
// both and neither changes the selection rule.
//
// # Configuration
//
// Zero Samples, Running or MinVotes take the defaults 7, 300 and 3. New
// rejects, with an error wrapping linecomp.ErrConfig that names the field:
// no candidates, a nil candidate, candidates of different line sizes, a
// candidate whose compression or decompression latency is unknown, a
// negative count, MinVotes greater than Samples, a λ that is negative, NaN
// or infinite (an infinite λ makes the zero-latency candidate's penalty
// NaN), a Running shorter than Samples under SampleWithinRun, or an unknown
// Phases value.
//
// Index 0 is "none" by convention only: the selector prices every candidate
// through the Codec contract, and the root "none" codec already has
// Size = 8 × LineSize and zero latencies.
//
// # Using it in a simulator
//
// A Selector is one sending GPU's selection logic: each sender has its own,
// fed its transfers in the order it sends them (the paper attaches the
// algorithm to every packet, so GPUs need not agree). It is a passive value:
// no goroutines, no I/O, no time (phases are counted in transfers, not
// cycles, as in the paper). It is not safe for concurrent use. Choose does
// not allocate.
//
// Choose has no error result; a line whose length is not the candidates'
// line size makes it return -1, count the line in Stats.Rejected and leave
// the state machine where it was. [Selector.ChooseErr] returns the same
// index with an error wrapping linecomp.ErrLineSize.
package vote
