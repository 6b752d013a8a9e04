// Package layerstest holds what the tests of layers and layers/gwops share: the independent
// test vectors of layers/testdata (made by a numpy/torch implementation), random graphs and
// atoms, and relative errors. It imports nothing of gwf, so that layers' own tests can use it.
package layerstest
