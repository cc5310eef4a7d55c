;; The logit fits' inner loops in WebAssembly SIMD (f64x2: two rows per instruction, no bounds
;; checks). The JavaScript kernels in ../kernels.ts compute the same sums and are the reference the
;; tests compare these with; this file is compiled by `npm run build:wasm` into kernels.wasm.ts.
;;
;; Data layout (see ../workspace.ts): covariates are stored column-major, column j at
;; cols + j·stride bytes, stride = 8·n with n padded to an even row count; padding rows hold zeros,
;; so they add nothing to any sum and no loop needs a scalar tail. Every pointer is 16-byte aligned.
(module
  (import "env" "memory" (memory 1))

  ;; out[i] = Σ_j beta[j] · col_j[i] for the n (even) rows: the first (k mod 4) columns one per
  ;; pass, then four per pass (one load and store of out for four multiply-adds).
  (func (export "lincomb")
    (param $cols i32) (param $n i32) (param $k i32) (param $beta i32) (param $out i32)
    (local $stride i32) (local $end i32) (local $p i32) (local $c i32) (local $j i32) (local $rest i32)
    (local $c1 i32) (local $c2 i32) (local $c3 i32)
    (local $b v128) (local $b1 v128) (local $b2 v128) (local $b3 v128)
    (local.set $stride (i32.shl (local.get $n) (i32.const 3)))
    (local.set $end (i32.add (local.get $out) (local.get $stride)))
    ;; out = 0
    (local.set $p (local.get $out))
    (block $z_done
      (br_if $z_done (i32.ge_u (local.get $p) (local.get $end)))
      (loop $z
        (v128.store (local.get $p) (v128.const i64x2 0 0))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br_if $z (i32.lt_u (local.get $p) (local.get $end)))))
    (local.set $rest (i32.rem_u (local.get $k) (i32.const 4)))
    (local.set $j (i32.const 0))
    (block $one_done
      (br_if $one_done (i32.ge_s (local.get $j) (local.get $rest)))
      (loop $one
        (local.set $b (f64x2.splat (f64.load (i32.add (local.get $beta) (i32.shl (local.get $j) (i32.const 3))))))
        (local.set $c (i32.add (local.get $cols) (i32.mul (local.get $j) (local.get $stride))))
        (local.set $p (local.get $out))
        (block $rows_done
          (br_if $rows_done (i32.ge_u (local.get $p) (local.get $end)))
          (loop $row
            (v128.store (local.get $p)
              (f64x2.add (v128.load (local.get $p))
                (f64x2.mul (local.get $b) (v128.load (local.get $c)))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $c (i32.add (local.get $c) (i32.const 16)))
            (br_if $row (i32.lt_u (local.get $p) (local.get $end)))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br_if $one (i32.lt_s (local.get $j) (local.get $rest)))))
    (block $four_done
      (br_if $four_done (i32.ge_s (local.get $j) (local.get $k)))
      (loop $four
        (local.set $c (i32.add (local.get $beta) (i32.shl (local.get $j) (i32.const 3))))
        (local.set $b (f64x2.splat (f64.load offset=0 (local.get $c))))
        (local.set $b1 (f64x2.splat (f64.load offset=8 (local.get $c))))
        (local.set $b2 (f64x2.splat (f64.load offset=16 (local.get $c))))
        (local.set $b3 (f64x2.splat (f64.load offset=24 (local.get $c))))
        (local.set $c (i32.add (local.get $cols) (i32.mul (local.get $j) (local.get $stride))))
        (local.set $c1 (i32.add (local.get $c) (local.get $stride)))
        (local.set $c2 (i32.add (local.get $c1) (local.get $stride)))
        (local.set $c3 (i32.add (local.get $c2) (local.get $stride)))
        (local.set $p (local.get $out))
        (block $rows4_done
          (br_if $rows4_done (i32.ge_u (local.get $p) (local.get $end)))
          (loop $row4
            (v128.store (local.get $p)
              (f64x2.add
                (f64x2.add (v128.load (local.get $p)) (f64x2.mul (local.get $b) (v128.load (local.get $c))))
                (f64x2.add
                  (f64x2.mul (local.get $b1) (v128.load (local.get $c1)))
                  (f64x2.add
                    (f64x2.mul (local.get $b2) (v128.load (local.get $c2)))
                    (f64x2.mul (local.get $b3) (v128.load (local.get $c3)))))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $c (i32.add (local.get $c) (i32.const 16)))
            (local.set $c1 (i32.add (local.get $c1) (i32.const 16)))
            (local.set $c2 (i32.add (local.get $c2) (i32.const 16)))
            (local.set $c3 (i32.add (local.get $c3) (i32.const 16)))
            (br_if $row4 (i32.lt_u (local.get $p) (local.get $end)))))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br_if $four (i32.lt_s (local.get $j) (local.get $k))))))

  ;; out[j] = Σ_i v[i] · col_j[i]: the 2 × 4 block kernel with v in both rows (and only the first
  ;; row stored), so four columns share each load of v and the sums run in independent chains.
  (func (export "dots")
    (param $v i32) (param $cols i32) (param $n i32) (param $k i32) (param $out i32)
    (local $stride i32) (local $j i32) (local $stop i32)
    (local.set $stride (i32.shl (local.get $n) (i32.const 3)))
    (local.set $j (i32.const 0))
    (local.set $stop (i32.rem_u (local.get $k) (i32.const 4)))
    (block $one_done
      (br_if $one_done (i32.ge_s (local.get $j) (local.get $stop)))
      (loop $one
        (call $dot21 (local.get $v) (local.get $v)
          (i32.add (local.get $cols) (i32.mul (local.get $j) (local.get $stride))) (local.get $stride)
          (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 3))) (i32.const 0) (i32.const 0))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br_if $one (i32.lt_s (local.get $j) (local.get $stop)))))
    (block $four_done
      (br_if $four_done (i32.ge_s (local.get $j) (local.get $k)))
      (loop $four
        (call $dot24 (local.get $v) (local.get $v)
          (i32.add (local.get $cols) (i32.mul (local.get $j) (local.get $stride))) (local.get $stride)
          (i32.add (local.get $out) (i32.shl (local.get $j) (i32.const 3))) (i32.const 0) (i32.const 0))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br_if $four (i32.lt_s (local.get $j) (local.get $k))))))

;; e^{−a} for a ≥ 0, two lanes at once: a = k·ln 2 − r with k an integer and |r| ≤ ln 2 / 2,
  ;; e^{−r} by its Taylor series to degree 13 (truncation below 1e−17 relative; Estrin's scheme, so the
        ;; powers of r are multiplied in parallel rather than in a 13-long chain), times 2^k built in
  ;; the exponent bits. Lanes with a > 708 (e^{−a} < 3.3e−308, below the normal range) give 0, which
  ;; changes no sum the fits take by more than that.
  ;; The binary logit's per-row quantities from η (at $eta) and the 0/1 outcome (f64, at $y), from
  ;; e = e^{−|η|} so they stay exact in the tails: resid = y − p, weight = p(1 − p), both times the
  ;; row's frequency weight (at $fw) when $weighted. Returns the (weighted) sum of |η| over rows
  ;; predicted on the wrong side. The log-likelihood's other part, Σ log(1 + e), is left at $logs:
  ;; unweighted, as products of (1 + e) over 32 iterations per lane (factors in (1, 2], no
  ;; overflow; 2 per 64 rows) for the caller to take logs of, as the log is the costliest part;
  ;; weighted, as the two lanes of Σ w · log(1 + e), the log from its atanh series. Padding rows
  ;; (η = 0, y = 0, weight 0) add log 2 to the unweighted products once each and nothing else.
  (func (export "binaryResiduals")
    (param $eta i32) (param $y i32) (param $fw i32) (param $weighted i32) (param $n i32)
    (param $resid i32) (param $weight i32) (param $logs i32)
    (result f64)
    (local $off i32) (local $bytes i32) (local $count i32)
    (local $t v128) (local $a v128) (local $e v128) (local $inv v128) (local $yv v128)
    (local $wrong v128) (local $prod v128) (local $x v128) (local $k v128) (local $r v128) (local $scale v128)
    (local $r2 v128) (local $r4 v128) (local $r8 v128)
    (local $wv v128) (local $lsum v128) (local $sv v128) (local $z v128) (local $z2 v128) (local $z4 v128)
    (local $z8 v128) (local $z16 v128)
    (local.set $wv (f64x2.splat (f64.const 1)))
    (local.set $lsum (v128.const i64x2 0 0))
    (local.set $bytes (i32.shl (local.get $n) (i32.const 3)))
    (local.set $wrong (v128.const i64x2 0 0))
    (local.set $prod (f64x2.splat (f64.const 1)))
    (local.set $off (i32.const 0))
    (local.set $count (i32.const 0))
    (block $done
      (br_if $done (i32.ge_u (local.get $off) (local.get $bytes)))
      (loop $row
        (local.set $t (v128.load (i32.add (local.get $eta) (local.get $off))))
        (local.set $yv (v128.load (i32.add (local.get $y) (local.get $off))))
        (local.set $a (f64x2.abs (local.get $t)))
        ;; e = e^{−a}: a = k·ln 2 − r with k an integer and |r| ≤ ln 2 / 2, e^{−r} by its Taylor
        ;; series to degree 13 (truncation below 1e−17 relative; Estrin's scheme, so the
        ;; powers of r are multiplied in parallel rather than in a 13-long chain), times 2^k built in the exponent
        ;; bits. Lanes with a > 708 (e^{−a} < 3.3e−308, below the normal range) give 0, which
        ;; changes no sum the fits take by more than that. (Written inline: V8 does not inline
        ;; WebAssembly calls, and a call per two rows costs as much as the polynomial.)
        (local.set $x (f64x2.neg (f64x2.min (local.get $a) (f64x2.splat (f64.const 708)))))
        (local.set $k (f64x2.nearest (f64x2.mul (local.get $x) (f64x2.splat (f64.const 1.4426950408889634)))))
        ;; Cody–Waite: ln 2 split so that k · ln2hi is exact.
        (local.set $r (f64x2.sub
          (f64x2.sub (local.get $x) (f64x2.mul (local.get $k) (f64x2.splat (f64.const 0.6931471803691238))))
          (f64x2.mul (local.get $k) (f64x2.splat (f64.const 1.9082149292705877e-10)))))
        (local.set $scale (i64x2.shl
          (i64x2.add (i64x2.extend_low_i32x4_s (i32x4.trunc_sat_f64x2_s_zero (local.get $k))) (i64x2.splat (i64.const 1023)))
          (i32.const 52)))
        (local.set $r2 (f64x2.mul (local.get $r) (local.get $r)))
        (local.set $r4 (f64x2.mul (local.get $r2) (local.get $r2)))
        (local.set $r8 (f64x2.mul (local.get $r4) (local.get $r4)))
        (local.set $e (v128.and
          (f64x2.le (local.get $a) (f64x2.splat (f64.const 708)))
          (f64x2.mul (local.get $scale)
            (f64x2.add (f64x2.add (f64x2.add (f64x2.add (f64x2.splat (f64.const 1.0)) (f64x2.mul (f64x2.splat (f64.const 1.0)) (local.get $r))) (f64x2.mul (local.get $r2) (f64x2.add (f64x2.splat (f64.const 0.5)) (f64x2.mul (f64x2.splat (f64.const 0.16666666666666666)) (local.get $r))))) (f64x2.mul (local.get $r4) (f64x2.add (f64x2.add (f64x2.splat (f64.const 0.041666666666666664)) (f64x2.mul (f64x2.splat (f64.const 0.008333333333333333)) (local.get $r))) (f64x2.mul (local.get $r2) (f64x2.add (f64x2.splat (f64.const 0.001388888888888889)) (f64x2.mul (f64x2.splat (f64.const 0.0001984126984126984)) (local.get $r))))))) (f64x2.mul (local.get $r8) (f64x2.add (f64x2.add (f64x2.add (f64x2.splat (f64.const 2.48015873015873e-05)) (f64x2.mul (f64x2.splat (f64.const 2.7557319223985893e-06)) (local.get $r))) (f64x2.mul (local.get $r2) (f64x2.add (f64x2.splat (f64.const 2.755731922398589e-07)) (f64x2.mul (f64x2.splat (f64.const 2.505210838544172e-08)) (local.get $r))))) (f64x2.mul (local.get $r4) (f64x2.add (f64x2.splat (f64.const 2.08767569878681e-09)) (f64x2.mul (f64x2.splat (f64.const 1.6059043836821613e-10)) (local.get $r))))))))))
        (local.set $inv (f64x2.div (f64x2.splat (f64.const 1)) (f64x2.add (f64x2.splat (f64.const 1)) (local.get $e))))
        (if (local.get $weighted)
          (then (local.set $wv (v128.load (i32.add (local.get $fw) (local.get $off))))))
        (v128.store (i32.add (local.get $resid) (local.get $off))
          (f64x2.mul (local.get $wv)
            (f64x2.sub (local.get $yv)
              (v128.bitselect (local.get $inv) (f64x2.mul (local.get $e) (local.get $inv))
                (f64x2.ge (local.get $t) (v128.const i64x2 0 0))))))
        (v128.store (i32.add (local.get $weight) (local.get $off))
          (f64x2.mul (local.get $wv) (f64x2.mul (f64x2.mul (local.get $e) (local.get $inv)) (local.get $inv))))
        ;; wrong side: (y = 1) ≠ (η ≥ 0)
        (local.set $wrong (f64x2.add (local.get $wrong)
          (f64x2.mul (local.get $wv)
            (v128.and (local.get $a)
              (v128.xor (f64x2.eq (local.get $yv) (f64x2.splat (f64.const 1)))
                (f64x2.ge (local.get $t) (v128.const i64x2 0 0)))))))
        (if (local.get $weighted)
          (then
            ;; log(1 + e) = 2 atanh(s), s = e / (2 + e) ≤ 1/3: 2 Σ_{m ≤ 16} s^{2m+1} / (2m + 1), the
            ;; first omitted term below 1e−17 relative (Estrin's scheme in z = s²).
            (local.set $sv (f64x2.div (local.get $e) (f64x2.add (f64x2.splat (f64.const 2)) (local.get $e))))
            (local.set $z (f64x2.mul (local.get $sv) (local.get $sv)))
            (local.set $z2 (f64x2.mul (local.get $z) (local.get $z)))
            (local.set $z4 (f64x2.mul (local.get $z2) (local.get $z2)))
            (local.set $z8 (f64x2.mul (local.get $z4) (local.get $z4)))
            (local.set $z16 (f64x2.mul (local.get $z8) (local.get $z8)))
            (local.set $lsum (f64x2.add (local.get $lsum)
              (f64x2.mul (local.get $wv) (f64x2.mul (local.get $sv)
                (f64x2.add (f64x2.add (f64x2.add (f64x2.add (f64x2.add (f64x2.splat (f64.const 2.0)) (f64x2.mul (f64x2.splat (f64.const 0.6666666666666666)) (local.get $z))) (f64x2.mul (local.get $z2) (f64x2.add (f64x2.splat (f64.const 0.4)) (f64x2.mul (f64x2.splat (f64.const 0.2857142857142857)) (local.get $z))))) (f64x2.mul (local.get $z4) (f64x2.add (f64x2.add (f64x2.splat (f64.const 0.2222222222222222)) (f64x2.mul (f64x2.splat (f64.const 0.18181818181818182)) (local.get $z))) (f64x2.mul (local.get $z2) (f64x2.add (f64x2.splat (f64.const 0.15384615384615385)) (f64x2.mul (f64x2.splat (f64.const 0.13333333333333333)) (local.get $z))))))) (f64x2.mul (local.get $z8) (f64x2.add (f64x2.add (f64x2.add (f64x2.splat (f64.const 0.11764705882352941)) (f64x2.mul (f64x2.splat (f64.const 0.10526315789473684)) (local.get $z))) (f64x2.mul (local.get $z2) (f64x2.add (f64x2.splat (f64.const 0.09523809523809523)) (f64x2.mul (f64x2.splat (f64.const 0.08695652173913043)) (local.get $z))))) (f64x2.mul (local.get $z4) (f64x2.add (f64x2.add (f64x2.splat (f64.const 0.08)) (f64x2.mul (f64x2.splat (f64.const 0.07407407407407407)) (local.get $z))) (f64x2.mul (local.get $z2) (f64x2.add (f64x2.splat (f64.const 0.06896551724137931)) (f64x2.mul (f64x2.splat (f64.const 0.06451612903225806)) (local.get $z))))))))) (f64x2.mul (local.get $z16) (f64x2.splat (f64.const 0.06060606060606061)))))))))
          (else
            (local.set $prod (f64x2.mul (local.get $prod) (f64x2.add (f64x2.splat (f64.const 1)) (local.get $e))))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (if (i32.eq (local.get $count) (i32.const 32))
              (then
                (v128.store (local.get $logs) (local.get $prod))
                (local.set $logs (i32.add (local.get $logs) (i32.const 16)))
                (local.set $prod (f64x2.splat (f64.const 1)))
                (local.set $count (i32.const 0))))))
        (local.set $off (i32.add (local.get $off) (i32.const 16)))
        (br_if $row (i32.lt_u (local.get $off) (local.get $bytes)))))
    (v128.store (local.get $logs) (select (local.get $lsum) (local.get $prod) (local.get $weighted)))
    (f64.add (f64x2.extract_lane 0 (local.get $wrong)) (f64x2.extract_lane 1 (local.get $wrong))))

  ;; The dot products of u and v with one column x: stores u·x at $outp and, when $pair, v·x at $outq.
  (func $dot21
    (param $u i32) (param $v i32) (param $x i32) (param $bytes i32)
    (param $outp i32) (param $outq i32) (param $pair i32)
    (local $off i32) (local $y v128) (local $p v128) (local $q v128)
    (local.set $p (v128.const i64x2 0 0))
    (local.set $q (v128.const i64x2 0 0))
    (local.set $off (i32.const 0))
    (block $done
      (br_if $done (i32.ge_u (local.get $off) (local.get $bytes)))
      (loop $row
        (local.set $y (v128.load (i32.add (local.get $x) (local.get $off))))
        (local.set $p (f64x2.add (local.get $p)
          (f64x2.mul (v128.load (i32.add (local.get $u) (local.get $off))) (local.get $y))))
        (local.set $q (f64x2.add (local.get $q)
          (f64x2.mul (v128.load (i32.add (local.get $v) (local.get $off))) (local.get $y))))
        (local.set $off (i32.add (local.get $off) (i32.const 16)))
        (br_if $row (i32.lt_u (local.get $off) (local.get $bytes)))))
    (f64.store (local.get $outp)
      (f64.add (f64x2.extract_lane 0 (local.get $p)) (f64x2.extract_lane 1 (local.get $p))))
    (if (local.get $pair)
      (then
        (f64.store (local.get $outq)
          (f64.add (f64x2.extract_lane 0 (local.get $q)) (f64x2.extract_lane 1 (local.get $q)))))))

  ;; The 2 × 4 block: u and v against four consecutive columns from $x (eight sums, each loaded
  ;; value feeding several multiply-adds). Stores four sums at $outp and, when $pair, four at $outq.
  (func $dot24
    (param $u i32) (param $v i32) (param $x i32) (param $bytes i32)
    (param $outp i32) (param $outq i32) (param $pair i32)
    (local $off i32) (local $x1 i32) (local $x2 i32) (local $x3 i32)
    (local $ui v128) (local $vi v128) (local $y0 v128) (local $y1 v128) (local $y2 v128) (local $y3 v128)
    (local $p0 v128) (local $p1 v128) (local $p2 v128) (local $p3 v128)
    (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128)
    (local.set $x1 (i32.add (local.get $x) (local.get $bytes)))
    (local.set $x2 (i32.add (local.get $x1) (local.get $bytes)))
    (local.set $x3 (i32.add (local.get $x2) (local.get $bytes)))
    (local.set $off (i32.const 0))
    (block $done
      (br_if $done (i32.ge_u (local.get $off) (local.get $bytes)))
      (loop $row
        (local.set $ui (v128.load (i32.add (local.get $u) (local.get $off))))
        (local.set $vi (v128.load (i32.add (local.get $v) (local.get $off))))
        (local.set $y0 (v128.load (i32.add (local.get $x) (local.get $off))))
        (local.set $y1 (v128.load (i32.add (local.get $x1) (local.get $off))))
        (local.set $y2 (v128.load (i32.add (local.get $x2) (local.get $off))))
        (local.set $y3 (v128.load (i32.add (local.get $x3) (local.get $off))))
        (local.set $p0 (f64x2.add (local.get $p0) (f64x2.mul (local.get $ui) (local.get $y0))))
        (local.set $p1 (f64x2.add (local.get $p1) (f64x2.mul (local.get $ui) (local.get $y1))))
        (local.set $p2 (f64x2.add (local.get $p2) (f64x2.mul (local.get $ui) (local.get $y2))))
        (local.set $p3 (f64x2.add (local.get $p3) (f64x2.mul (local.get $ui) (local.get $y3))))
        (local.set $q0 (f64x2.add (local.get $q0) (f64x2.mul (local.get $vi) (local.get $y0))))
        (local.set $q1 (f64x2.add (local.get $q1) (f64x2.mul (local.get $vi) (local.get $y1))))
        (local.set $q2 (f64x2.add (local.get $q2) (f64x2.mul (local.get $vi) (local.get $y2))))
        (local.set $q3 (f64x2.add (local.get $q3) (f64x2.mul (local.get $vi) (local.get $y3))))
        (local.set $off (i32.add (local.get $off) (i32.const 16)))
        (br_if $row (i32.lt_u (local.get $off) (local.get $bytes)))))
    (f64.store offset=0 (local.get $outp)
      (f64.add (f64x2.extract_lane 0 (local.get $p0)) (f64x2.extract_lane 1 (local.get $p0))))
    (f64.store offset=8 (local.get $outp)
      (f64.add (f64x2.extract_lane 0 (local.get $p1)) (f64x2.extract_lane 1 (local.get $p1))))
    (f64.store offset=16 (local.get $outp)
      (f64.add (f64x2.extract_lane 0 (local.get $p2)) (f64x2.extract_lane 1 (local.get $p2))))
    (f64.store offset=24 (local.get $outp)
      (f64.add (f64x2.extract_lane 0 (local.get $p3)) (f64x2.extract_lane 1 (local.get $p3))))
    (if (local.get $pair)
      (then
        (f64.store offset=0 (local.get $outq)
          (f64.add (f64x2.extract_lane 0 (local.get $q0)) (f64x2.extract_lane 1 (local.get $q0))))
        (f64.store offset=8 (local.get $outq)
          (f64.add (f64x2.extract_lane 0 (local.get $q1)) (f64x2.extract_lane 1 (local.get $q1))))
        (f64.store offset=16 (local.get $outq)
          (f64.add (f64x2.extract_lane 0 (local.get $q2)) (f64x2.extract_lane 1 (local.get $q2))))
        (f64.store offset=24 (local.get $outq)
          (f64.add (f64x2.extract_lane 0 (local.get $q3)) (f64x2.extract_lane 1 (local.get $q3)))))))

  ;; The upper triangle (b ≥ a) of out = Σ_i w_i x_ia x_ib (k × k, row-major; overwritten), or of
  ;; XᵀX when $weighted is 0. Columns are taken two at a time (a, a + 1): both are weighted once
  ;; into $scratch (2 · stride bytes), then dotted with every column b ≥ a in blocks of four. Entry
  ;; (a + 1, a) lands below the diagonal and is overwritten when the caller mirrors the triangle.
  (func (export "gram")
    (param $cols i32) (param $n i32) (param $k i32) (param $w i32) (param $weighted i32)
    (param $out i32) (param $scratch i32)
    (local $stride i32) (local $a i32) (local $b i32) (local $pair i32) (local $rest i32) (local $stop i32)
    (local $xa i32) (local $xb i32) (local $u i32) (local $v i32) (local $off i32) (local $wi v128)
    (local $rowp i32) (local $rowq i32)
    (local.set $stride (i32.shl (local.get $n) (i32.const 3)))
    (local.set $a (i32.const 0))
    (block $a_done
      (br_if $a_done (i32.ge_s (local.get $a) (local.get $k)))
      (loop $a_loop
        (local.set $pair (i32.lt_s (i32.add (local.get $a) (i32.const 1)) (local.get $k)))
        (local.set $xa (i32.add (local.get $cols) (i32.mul (local.get $a) (local.get $stride))))
        (local.set $xb (select (i32.add (local.get $xa) (local.get $stride)) (local.get $xa) (local.get $pair)))
        (local.set $u (local.get $xa))
        (local.set $v (local.get $xb))
        (if (local.get $weighted)
          (then
            (local.set $u (local.get $scratch))
            (local.set $v (i32.add (local.get $scratch) (local.get $stride)))
            (local.set $off (i32.const 0))
            (block $w_done
              (br_if $w_done (i32.ge_u (local.get $off) (local.get $stride)))
              (loop $w_loop
                (local.set $wi (v128.load (i32.add (local.get $w) (local.get $off))))
                (v128.store (i32.add (local.get $u) (local.get $off))
                  (f64x2.mul (local.get $wi) (v128.load (i32.add (local.get $xa) (local.get $off)))))
                (v128.store (i32.add (local.get $v) (local.get $off))
                  (f64x2.mul (local.get $wi) (v128.load (i32.add (local.get $xb) (local.get $off)))))
                (local.set $off (i32.add (local.get $off) (i32.const 16)))
                (br_if $w_loop (i32.lt_u (local.get $off) (local.get $stride)))))))
        (local.set $rowp (i32.add (local.get $out) (i32.shl (i32.mul (local.get $a) (local.get $k)) (i32.const 3))))
        (local.set $rowq (i32.add (local.get $rowp) (i32.shl (local.get $k) (i32.const 3))))
        ;; The (k − a) mod 4 leftover columns one at a time, then blocks of four.
        (local.set $b (local.get $a))
        (local.set $stop (i32.add (local.get $a) (i32.rem_u (i32.sub (local.get $k) (local.get $a)) (i32.const 4))))
        (block $one_done
          (br_if $one_done (i32.ge_s (local.get $b) (local.get $stop)))
          (loop $one
            (call $dot21 (local.get $u) (local.get $v)
              (i32.add (local.get $cols) (i32.mul (local.get $b) (local.get $stride))) (local.get $stride)
              (i32.add (local.get $rowp) (i32.shl (local.get $b) (i32.const 3)))
              (i32.add (local.get $rowq) (i32.shl (local.get $b) (i32.const 3)))
              (local.get $pair))
            (local.set $b (i32.add (local.get $b) (i32.const 1)))
            (br_if $one (i32.lt_s (local.get $b) (local.get $stop)))))
        (block $four_done
          (br_if $four_done (i32.ge_s (local.get $b) (local.get $k)))
          (loop $four
            (call $dot24 (local.get $u) (local.get $v)
              (i32.add (local.get $cols) (i32.mul (local.get $b) (local.get $stride))) (local.get $stride)
              (i32.add (local.get $rowp) (i32.shl (local.get $b) (i32.const 3)))
              (i32.add (local.get $rowq) (i32.shl (local.get $b) (i32.const 3)))
              (local.get $pair))
            (local.set $b (i32.add (local.get $b) (i32.const 4)))
            (br_if $four (i32.lt_s (local.get $b) (local.get $k)))))
        (local.set $a (i32.add (local.get $a) (i32.const 2)))
        (br_if $a_loop (i32.lt_s (local.get $a) (local.get $k)))))))
