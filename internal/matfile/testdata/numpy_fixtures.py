#!/usr/bin/env python3
"""Matrices saved by numpy (an independent writer) for internal/matfile's tests.

Run from internal/matfile with Debian's python3-numpy:  /usr/bin/python3 testdata/numpy_fixtures.py
"""
import numpy as np

m = np.array([[0.0, 1.5, -2.25], [3.0, 1e-300, 4.5]])
np.save("testdata/m.npy", m)
np.save("testdata/m_f4.npy", m.astype(np.float32))
np.save("testdata/m_i8.npy", np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int64))
np.save("testdata/m_fortran.npy", np.asfortranarray(m))
np.savez("testdata/one.npz", m)
np.savez_compressed("testdata/named.npz", matrix=m, other=np.zeros(3))
np.savez("testdata/two.npz", a=m, b=m)
np.save("testdata/cube.npy", np.zeros((2, 2, 2)))
np.savetxt("testdata/m.csv", m, delimiter=",")
