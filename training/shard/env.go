package shard

import (
	"errors"
	"fmt"
	"strconv"
)

// The environment variables FromEnv reads.
const (
	// Slurm job arrays (sbatch --array=0-15) set these in every task.
	EnvSlurmTaskID    = "SLURM_ARRAY_TASK_ID"
	EnvSlurmTaskMin   = "SLURM_ARRAY_TASK_MIN"
	EnvSlurmTaskMax   = "SLURM_ARRAY_TASK_MAX"
	EnvSlurmTaskCount = "SLURM_ARRAY_TASK_COUNT"
	EnvSlurmTaskStep  = "SLURM_ARRAY_TASK_STEP"
	// Kubernetes Indexed Jobs (completionMode: Indexed) set this in every pod, 0..completions-1.
	// The number of completions is not in the environment: the caller passes it as count.
	EnvJobCompletionIndex = "JOB_COMPLETION_INDEX"
)

// FromEnv reads the shard from a job array's environment, through getenv (os.Getenv in a
// program). ok is false when no job-array variable is set.
//
// Slurm: the index is SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN (so --array=1-16 works as
// well as 0-15) and the count SLURM_ARRAY_TASK_COUNT; the array must be contiguous (no step
// other than 1), and count, when positive, must agree. Kubernetes: the index is
// JOB_COMPLETION_INDEX and the count must be given (the Job's completions). Slurm's variables
// win when both are set.
func FromEnv(getenv func(string) string, count int) (s Shard, ok bool, err error) {
	num := func(name string) (int, bool, error) {
		v := getenv(name)
		if v == "" {
			return 0, false, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, true, fmt.Errorf("shard: %s=%q is not an integer", name, v)
		}
		return n, true, nil
	}
	if id, set, err := num(EnvSlurmTaskID); set || err != nil {
		if err != nil {
			return Shard{}, true, err
		}
		lo, _, err := num(EnvSlurmTaskMin)
		if err != nil {
			return Shard{}, true, err
		}
		if step, set, err := num(EnvSlurmTaskStep); err != nil || (set && step != 1) {
			if err == nil {
				err = fmt.Errorf("shard: %s=%d: use a contiguous job array (--array=0-N, no step)", EnvSlurmTaskStep, step)
			}
			return Shard{}, true, err
		}
		n, nset, err := num(EnvSlurmTaskCount)
		if err != nil {
			return Shard{}, true, err
		}
		if hi, set, err := num(EnvSlurmTaskMax); err != nil || (set && nset && hi-lo+1 != n) {
			if err == nil {
				err = fmt.Errorf("shard: the Slurm array %d-%d has %d tasks: use a contiguous job array (--array=0-N)", lo, hi, n)
			}
			return Shard{}, true, err
		}
		switch {
		case !nset && count <= 0:
			return Shard{}, true, fmt.Errorf("shard: %s is set but not %s: give the number of shards", EnvSlurmTaskID, EnvSlurmTaskCount)
		case !nset:
			n = count
		case count > 0 && count != n:
			return Shard{}, true, fmt.Errorf("shard: %d shards asked for, but the Slurm array has %d tasks (%s)", count, n, EnvSlurmTaskCount)
		}
		s = Shard{Index: id - lo, Count: n}
		if err := s.Validate(); err != nil {
			return Shard{}, true, fmt.Errorf("%w (from %s=%d, %s=%d)", err, EnvSlurmTaskID, id, EnvSlurmTaskMin, lo)
		}
		return s, true, nil
	}
	i, set, err := num(EnvJobCompletionIndex)
	if !set || err != nil {
		return Shard{}, set, err
	}
	if count <= 0 {
		return Shard{}, true, errors.New("shard: " + EnvJobCompletionIndex + " is set: give the number of shards (the Job's completions)")
	}
	s = Shard{Index: i, Count: count}
	if err := s.Validate(); err != nil {
		return Shard{}, true, fmt.Errorf("%w (from %s=%d)", err, EnvJobCompletionIndex, i)
	}
	return s, true, nil
}

// Resolve is the shard a program is asked to do: the shard text ("i/n", as Parse reads it)
// when there is one, else the job array's (FromEnv), else Whole() with ok false (no sharding asked
// for). count, when positive, is the number of shards the user gave; it must agree with the
// text or the job array, and a count without either is an error.
func Resolve(text string, count int, getenv func(string) string) (s Shard, ok bool, err error) {
	if count < 0 {
		return Whole(), false, fmt.Errorf("shard: %d shards", count)
	}
	if text != "" {
		if s, err = Parse(text); err != nil {
			return Whole(), false, err
		}
		if count > 0 && count != s.Count {
			return Whole(), false, fmt.Errorf("shard: %d shards disagree with shard %s", count, text)
		}
		return s, true, nil
	}
	s, ok, err = FromEnv(getenv, count)
	switch {
	case err != nil:
		return Whole(), false, err
	case !ok && count > 0:
		return Whole(), false, fmt.Errorf("shard: %d shards, but which one? Give the shard (i/n) or run in a job array (%s or %s set)", count, EnvSlurmTaskID, EnvJobCompletionIndex)
	case !ok:
		return Whole(), false, nil
	}
	return s, true, nil
}
