package main

import (
	"github.com/sirupsen/logrus"

	"github.com/gwf-graphs/gwf/internal/dirlock"
	"github.com/gwf-graphs/gwf/training/shard"
)

// lockOutputDir locks the --output-dir folder dir for this run (nothing when dir is ""), so
// that a second run on it stops with an error naming this one instead of computing everything
// again beside it. sh is the part of the work the run does (shard.Whole(): all of it): the
// shards of one run share the folder on purpose, so each locks it under a name of its own.
// Call release when the run ends; a lock left by a killed run is taken over, with a warning,
// by the next run on this host.
func lockOutputDir(dir string, sh shard.Shard, log *logrus.Logger) (release func(), err error) {
	if dir == "" {
		return func() {}, nil
	}
	name := dirlock.Name
	if sh.Count > 1 {
		name = shard.PartName(name, sh) // .gwf.shard-0-of-2.lock
	}
	l, err := dirlock.AcquireAs(dir, name, func(msg string) { log.Warn(msg) })
	if err != nil {
		return nil, err
	}
	return func() {
		if err := l.Release(); err != nil {
			log.Warnf("%v", err)
		}
	}, nil
}
