#include "textflag.h"

// func costRowAsm(n int, row *float64, fi float64, ft, d *float64, mask *int64) float64
// row[j] = (fi + ft[j] − 2·row[j]) (+ d[j]), rounded as in Go (2·row[j] is exact, so the FMA
// rounds once like the subtraction); returns min_j row[j]. Y7 holds the running minimum
// (+Inf in masked-out lanes of the tail), Y6 = −2, Y5 = fi.
TEXT ·costRowAsm(SB), NOSPLIT, $0-56
	MOVQ         n+0(FP), CX
	MOVQ         row+8(FP), DI
	VBROADCASTSD fi+16(FP), Y5
	MOVQ         ft+24(FP), SI
	MOVQ         d+32(FP), DX
	MOVQ         mask+40(FP), AX
	MOVQ         $0xC000000000000000, R8 // −2.0
	VMOVQ        R8, X6
	VBROADCASTSD X6, Y6
	MOVQ         $0x7FF0000000000000, R8 // +Inf
	VMOVQ        R8, X7
	VBROADCASTSD X7, Y7
	MOVQ         CX, BX
	SHRQ         $2, CX
	ANDQ         $3, BX
	TESTQ        DX, DX
	JE           nod

	// with D
	TESTQ CX, CX
	JE    dtail

dloop:
	VADDPD      (SI), Y5, Y0
	VFMADD231PD (DI), Y6, Y0
	VADDPD      (DX), Y0, Y0
	VMOVUPD     Y0, (DI)
	VMINPD      Y7, Y0, Y7
	ADDQ        $32, SI
	ADDQ        $32, DX
	ADDQ        $32, DI
	DECQ        CX
	JNE         dloop

dtail:
	TESTQ       BX, BX
	JE          reduce
	VMOVDQU     (AX), Y9
	VMASKMOVPD  (SI), Y9, Y1
	VMASKMOVPD  (DX), Y9, Y2
	VMASKMOVPD  (DI), Y9, Y3
	VADDPD      Y1, Y5, Y0
	VFMADD231PD Y3, Y6, Y0
	VADDPD      Y2, Y0, Y0
	VMASKMOVPD  Y0, Y9, (DI)
	VBLENDVPD   Y9, Y0, Y7, Y0               // masked-out lanes: the running minimum
	VMINPD      Y7, Y0, Y7
	JMP         reduce

nod:
	TESTQ CX, CX
	JE    ntail

nloop:
	VADDPD      (SI), Y5, Y0
	VFMADD231PD (DI), Y6, Y0
	VMOVUPD     Y0, (DI)
	VMINPD      Y7, Y0, Y7
	ADDQ        $32, SI
	ADDQ        $32, DI
	DECQ        CX
	JNE         nloop

ntail:
	TESTQ       BX, BX
	JE          reduce
	VMOVDQU     (AX), Y9
	VMASKMOVPD  (SI), Y9, Y1
	VMASKMOVPD  (DI), Y9, Y3
	VADDPD      Y1, Y5, Y0
	VFMADD231PD Y3, Y6, Y0
	VMASKMOVPD  Y0, Y9, (DI)
	VBLENDVPD   Y9, Y0, Y7, Y0
	VMINPD      Y7, Y0, Y7

reduce:
	VEXTRACTF128 $1, Y7, X1
	VMINPD       X1, X7, X7
	VPERMILPD    $1, X7, X1
	VMINSD       X1, X7, X7
	VMOVSD       X7, ret+48(FP)
	VZEROUPPER
	RET

// MFLUSH zeroes the lanes of Y0 whose magnitude is below the smallest normal number (Y10 =
// minimum, Y11 = sign-clearing mask; Y2, Y3 scratch).
#define MFLUSH \
	VANDPD Y11, Y0, Y2 \
	VCMPPD $1, Y10, Y2, Y3 \
	VANDNPD Y0, Y3, Y0

// func mulScaledAsm(n int, dst *float64, a float64, x, y *float64, mask *int64, consts *float64)
// dst[j] = a·(x[j]·y[j]), subnormal results flushed to 0.
TEXT ·mulScaledAsm(SB), NOSPLIT, $0-56
	MOVQ         n+0(FP), CX
	MOVQ         dst+8(FP), DI
	VBROADCASTSD a+16(FP), Y5
	MOVQ         x+24(FP), SI
	MOVQ         y+32(FP), DX
	MOVQ         mask+40(FP), AX
	MOVQ         consts+48(FP), R8
	VMOVUPD      704(R8), Y10 // minNormal (expConsts[22])
	VMOVUPD      736(R8), Y11 // sign-clearing mask (expConsts[23])
	MOVQ         CX, BX
	SHRQ         $2, CX
	ANDQ         $3, BX
	TESTQ        CX, CX
	JE           mtail

mloop:
	VMOVUPD (SI), Y0
	VMULPD  (DX), Y0, Y0
	VMULPD  Y5, Y0, Y0
	MFLUSH
	VMOVUPD Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DX
	ADDQ    $32, DI
	DECQ    CX
	JNE     mloop

mtail:
	TESTQ      BX, BX
	JE         mdone
	VMOVDQU    (AX), Y9
	VMASKMOVPD (SI), Y9, Y0
	VMASKMOVPD (DX), Y9, Y1
	VMULPD     Y1, Y0, Y0
	VMULPD     Y5, Y0, Y0
	MFLUSH
	VMASKMOVPD Y0, Y9, (DI)

mdone:
	VZEROUPPER
	RET

// NEGINF loads −Inf into all lanes of reg (BX scratch).
#define NEGINF(reg, xreg) \
	MOVQ $0xFFF0000000000000, BX \
	VMOVQ BX, xreg \
	VBROADCASTSD xreg, reg

// func maxAddAsm(n int, x, y *float64, _ float64, mask *int64) float64
// max_j (x[j] + y[j]); Y7 holds the running maximum. VMAXPD returns its second source when
// either is NaN, and that source is the running maximum: NaN sums are skipped.
TEXT ·maxAddAsm(SB), NOSPLIT, $0-48
	MOVQ  n+0(FP), CX
	MOVQ  x+8(FP), SI
	MOVQ  y+16(FP), DX
	MOVQ  mask+32(FP), AX
	NEGINF(Y7, X7)
	MOVQ  CX, R8
	SHRQ  $2, CX
	ANDQ  $3, R8
	TESTQ CX, CX
	JE    xtail

xloop:
	VMOVUPD (SI), Y0
	VADDPD  (DX), Y0, Y0
	VMAXPD  Y7, Y0, Y7
	ADDQ    $32, SI
	ADDQ    $32, DX
	DECQ    CX
	JNE     xloop

xtail:
	TESTQ      R8, R8
	JE         xreduce
	VMOVDQU    (AX), Y9
	VMASKMOVPD (SI), Y9, Y0
	VMASKMOVPD (DX), Y9, Y1
	VADDPD     Y1, Y0, Y0
	VBLENDVPD  Y9, Y0, Y7, Y0 // masked-out lanes: the running maximum
	VMAXPD     Y7, Y0, Y7

xreduce:
	VEXTRACTF128 $1, Y7, X1
	VMAXPD       X7, X1, X7
	VPERMILPD    $1, X7, X1
	VMAXSD       X7, X1, X7
	VMOVSD       X7, ret+40(FP)
	VZEROUPPER
	RET

// func maxIntoAsm(n int, mx *float64, a float64, x *float64, mask *int64)
// mx[j] = max(mx[j], a + x[j]); NaN sums leave mx[j] (VMAXPD's second source).
TEXT ·maxIntoAsm(SB), NOSPLIT, $0-40
	MOVQ         n+0(FP), CX
	MOVQ         mx+8(FP), DI
	VBROADCASTSD a+16(FP), Y5
	MOVQ         x+24(FP), SI
	MOVQ         mask+32(FP), AX
	MOVQ         CX, R8
	SHRQ         $2, CX
	ANDQ         $3, R8
	TESTQ        CX, CX
	JE           itail

iloop:
	VADDPD  (SI), Y5, Y0
	VMAXPD  (DI), Y0, Y0
	VMOVUPD Y0, (DI)
	ADDQ    $32, SI
	ADDQ    $32, DI
	DECQ    CX
	JNE     iloop

itail:
	TESTQ      R8, R8
	JE         idone
	VMOVDQU    (AX), Y9
	VMASKMOVPD (SI), Y9, Y0
	VMASKMOVPD (DI), Y9, Y1
	VADDPD     Y0, Y5, Y0
	VMAXPD     Y1, Y0, Y0
	VMASKMOVPD Y0, Y9, (DI)

idone:
	VZEROUPPER
	RET
