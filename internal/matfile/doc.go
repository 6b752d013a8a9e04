// Package matfile reads and writes dense float64 matrices in the files researchers exchange
// them in, chosen by the file name's extension: NumPy's .npy and .npz (numpy.load reads both)
// and CSV, optionally with a header row and a first column of names (pandas' index_col=0).
//
// Readers check the shape against limits before allocating, and refuse non-finite values.
package matfile
