// Package bench measures how fast this machine runs gwf's kernels — one core's dense product
// rate, a PPA GWD on sparse and dense graphs, a barycenter with and without the envelope
// loss, PPA against CG over graph sizes — and a training epoch, as 'gwf bench' reports them.
// Timings are means over repeated calls after an untimed first call (which sizes the
// workspaces), with the allocations per call, so that a hot loop that starts allocating shows.
package bench
