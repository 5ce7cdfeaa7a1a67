class TestScaledMM(TestCase):
    def test_scaled_mm_tensorwise(self, device, dtype):
        self.assertEqual(out.dtype, dtype)
        expected = reference_scaled_mm(a, b, scale_a, scale_b)
        self.assertEqual(out, expected.to(dtype), atol=1e-2, rtol=1e-2)
        scale_b = torch.rand(1, 16, device=device, dtype=torch.float32) + 0.5
&       out = torch._scaled_mm(a, b, scale_a=scale_a, scale_b=scale_b, out_dtype=dtype)
