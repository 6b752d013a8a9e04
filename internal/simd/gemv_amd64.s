#include "textflag.h"

// func dot4(n int, a *float64, lda int, x *float64, y *float64, mask *int64)
// y[0:4] = rows 0..3 of A times x; Y0–Y3 accumulate one row each.
TEXT ·dot4(SB), NOSPLIT, $0-48
	MOVQ   n+0(FP), CX
	MOVQ   a+8(FP), SI
	MOVQ   lda+16(FP), R8
	SHLQ   $3, R8
	LEAQ   (R8)(R8*2), R9
	MOVQ   x+24(FP), DX
	MOVQ   y+32(FP), DI
	MOVQ   mask+40(FP), AX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	MOVQ   CX, BX
	SHRQ   $2, CX
	ANDQ   $3, BX
	TESTQ  CX, CX
	JE     tail4

loop4:
	VMOVUPD     (DX), Y8
	VFMADD231PD (SI), Y8, Y0
	VFMADD231PD (SI)(R8*1), Y8, Y1
	VFMADD231PD (SI)(R8*2), Y8, Y2
	VFMADD231PD (SI)(R9*1), Y8, Y3
	ADDQ        $32, SI
	ADDQ        $32, DX
	DECQ        CX
	JNE         loop4

tail4:
	TESTQ       BX, BX
	JE          reduce4
	VMOVDQU     (AX), Y9
	VMASKMOVPD  (DX), Y9, Y8
	VMASKMOVPD  (SI), Y9, Y10
	VFMADD231PD Y10, Y8, Y0
	VMASKMOVPD  (SI)(R8*1), Y9, Y10
	VFMADD231PD Y10, Y8, Y1
	VMASKMOVPD  (SI)(R8*2), Y9, Y10
	VFMADD231PD Y10, Y8, Y2
	VMASKMOVPD  (SI)(R9*1), Y9, Y10
	VFMADD231PD Y10, Y8, Y3

reduce4:
	// Y4 = [Σ01 row0, Σ01 row1, Σ23 row0, Σ23 row1], Y5 the same for rows 2, 3.
	VHADDPD    Y1, Y0, Y4
	VHADDPD    Y3, Y2, Y5
	VPERM2F128 $0x20, Y5, Y4, Y6
	VPERM2F128 $0x31, Y5, Y4, Y7
	VADDPD     Y7, Y6, Y6
	VMOVUPD    Y6, (DI)
	VZEROUPPER
	RET

// func dot1(n int, a *float64, x *float64, mask *int64) float64
TEXT ·dot1(SB), NOSPLIT, $0-40
	MOVQ   n+0(FP), CX
	MOVQ   a+8(FP), SI
	MOVQ   x+16(FP), DX
	MOVQ   mask+24(FP), AX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	MOVQ   CX, BX
	SHRQ   $2, CX
	ANDQ   $3, BX
	TESTQ  CX, CX
	JE     tail1

loop1:
	VMOVUPD     (DX), Y8
	VFMADD231PD (SI), Y8, Y0
	ADDQ        $32, SI
	ADDQ        $32, DX
	DECQ        CX
	JNE         loop1

tail1:
	TESTQ       BX, BX
	JE          reduce1
	VMOVDQU     (AX), Y9
	VMASKMOVPD  (DX), Y9, Y8
	VMASKMOVPD  (SI), Y9, Y10
	VFMADD231PD Y10, Y8, Y1

reduce1:
	VADDPD       Y1, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VHADDPD      X0, X0, X0
	VMOVSD       X0, ret+32(FP)
	VZEROUPPER
	RET
