"""The starter bank's token-batcher tests, kept (inputs and hand-checked outputs)."""

LEGACY = [
    {
        "samples": [
            ("12 4\na 3\nb 4\nc 2\nd 5\n", "a b c\nd\nwaste 3\n"),
            ("8 2\nx 8\ny 1\n", "x\ny\nwaste 0\n"),
            ("100 0\n", "waste 0\n"),
        ],
        "hidden": [
            ("12 5\nr1 3\nr2 3\nr3 3\nr4 3\nr5 3\n", "r1 r2 r3 r4\nr5\nwaste 0\n"),
            ("20 4\nlong 10\ns1 1\ns2 1\ns3 1\n", "long s1\ns2 s3\nwaste 9\n"),
            ("20 4\ns1 1\ns2 1\ns3 1\nlong 10\n", "s1 s2 s3\nlong\nwaste 0\n"),
            ("1 3\na 1\nb 1\nc 1\n", "a\nb\nc\nwaste 0\n"),
            ("50 1\nsolo 50\n", "solo\nwaste 0\n"),
            (
                "64 40\nq0 11\nq1 9\nq2 5\nq3 12\nq4 12\nq5 11\nq6 1\nq7 8\nq8 10\nq9 4\nq10 2\nq11 14\nq12 12\nq13 10\nq14 3\nq15 6\nq16 4\nq17 1\nq18 7\nq19 11\nq20 1\nq21 8\nq22 10\nq23 10\nq24 14\nq25 13\nq26 7\nq27 15\nq28 12\nq29 14\nq30 8\nq31 2\nq32 9\nq33 12\nq34 9\nq35 13\nq36 8\nq37 7\nq38 5\nq39 14\n",
                "q0 q1 q2 q3 q4\nq5 q6 q7 q8 q9\nq10 q11 q12 q13\nq14 q15 q16 q17 q18\nq19 q20 q21 q22 q23\nq24 q25 q26 q27\nq28 q29 q30 q31\nq32 q33 q34 q35\nq36 q37 q38 q39\nwaste 141\n",
            ),
            (
                "4096 60\nreq-0 2048\nreq-1 32\nreq-2 4096\nreq-3 4096\nreq-4 2048\nreq-5 4096\nreq-6 512\nreq-7 32\nreq-8 128\nreq-9 4096\nreq-10 2048\nreq-11 1024\nreq-12 512\nreq-13 128\nreq-14 32\nreq-15 2048\nreq-16 512\nreq-17 2048\nreq-18 512\nreq-19 128\nreq-20 4096\nreq-21 32\nreq-22 32\nreq-23 1024\nreq-24 1024\nreq-25 64\nreq-26 2048\nreq-27 32\nreq-28 4096\nreq-29 2048\nreq-30 2048\nreq-31 128\nreq-32 2048\nreq-33 4096\nreq-34 2048\nreq-35 128\nreq-36 2048\nreq-37 64\nreq-38 1024\nreq-39 32\nreq-40 128\nreq-41 4096\nreq-42 1024\nreq-43 32\nreq-44 64\nreq-45 64\nreq-46 4096\nreq-47 128\nreq-48 128\nreq-49 4096\nreq-50 1024\nreq-51 2048\nreq-52 4096\nreq-53 512\nreq-54 2048\nreq-55 32\nreq-56 1024\nreq-57 4096\nreq-58 64\nreq-59 32\n",
                "req-0 req-1\nreq-2\nreq-3\nreq-4\nreq-5\nreq-6 req-7 req-8\nreq-9\nreq-10 req-11\nreq-12 req-13 req-14\nreq-15 req-16\nreq-17 req-18\nreq-19\nreq-20\nreq-21 req-22 req-23 req-24\nreq-25 req-26\nreq-27\nreq-28\nreq-29 req-30\nreq-31 req-32\nreq-33\nreq-34 req-35\nreq-36 req-37\nreq-38 req-39 req-40\nreq-41\nreq-42 req-43 req-44 req-45\nreq-46\nreq-47 req-48\nreq-49\nreq-50 req-51\nreq-52\nreq-53 req-54\nreq-55 req-56\nreq-57\nreq-58 req-59\nwaste 26016\n",
            ),
        ],
    },
    {
        "samples": [
            ("16 10 4\na 0 4\nb 3 4\nc 15 2\nd 16 6\n", "@10 a b\n@25 c d\nwaste 4\n"),
            ("8 100 3\nx 0 4\ny 1 4\nz 2 1\n", "@2 x y\n@102 z\nwaste 0\n"),
            ("100 5 3\na 0 1\nb 5 1\nc 6 1\n", "@5 a b\n@11 c\nwaste 0\n"),
        ],
        "hidden": [
            ("10 0 5\na 0 1\nb 0 1\nc 1 1\nd 1 1\ne 1 1\n", "@0 a b\n@1 c d e\nwaste 0\n"),
            ("10 50 0\n", "waste 0\n"),
            ("12 20 4\na 0 6\nb 0 6\nc 0 6\nd 100 12\n", "@0 a b\n@20 c\n@120 d\nwaste 0\n"),
            (
                "30 10 5\na 0 10\nb 10 10\nc 21 1\nd 31 1\ne 31 30\n",
                "@10 a b\n@31 c d\n@41 e\nwaste 0\n",
            ),
            (
                "64 12 40\nq0 4 12\nq1 8 5\nq2 8 11\nq3 15 12\nq4 19 8\nq5 21 15\nq6 22 14\nq7 25 1\nq8 30 2\nq9 35 4\nq10 42 15\nq11 49 6\nq12 55 1\nq13 55 2\nq14 56 9\nq15 60 2\nq16 63 14\nq17 65 10\nq18 72 7\nq19 78 1\nq20 80 15\nq21 82 10\nq22 86 6\nq23 86 6\nq24 86 9\nq25 93 13\nq26 98 2\nq27 99 6\nq28 105 4\nq29 110 1\nq30 116 11\nq31 117 5\nq32 121 10\nq33 121 4\nq34 126 11\nq35 129 16\nq36 131 12\nq37 134 12\nq38 139 9\nq39 141 12\n",
                "@16 q0 q1 q2 q3\n@30 q4 q5 q6 q7\n@42 q8 q9 q10\n@61 q11 q12 q13 q14 q15\n@75 q16 q17 q18\n@86 q19 q20 q21 q22\n@98 q23 q24 q25 q26\n@111 q27 q28 q29\n@128 q30 q31 q32 q33 q34\n@141 q35 q36 q37 q38\n@153 q39\nwaste 176\n",
            ),
            (
                "2048 40 60\nr0 29 64\nr1 57 64\nr2 70 512\nr3 94 1024\nr4 123 256\nr5 146 64\nr6 165 1024\nr7 192 256\nr8 194 16\nr9 205 512\nr10 224 256\nr11 234 512\nr12 247 16\nr13 272 64\nr14 301 512\nr15 309 512\nr16 311 256\nr17 330 256\nr18 331 256\nr19 344 64\nr20 362 512\nr21 377 1024\nr22 394 512\nr23 414 512\nr24 437 1024\nr25 446 256\nr26 455 256\nr27 480 1024\nr28 487 1024\nr29 500 256\nr30 522 16\nr31 539 1024\nr32 544 16\nr33 571 16\nr34 600 16\nr35 602 64\nr36 630 16\nr37 639 1024\nr38 666 512\nr39 675 16\nr40 691 256\nr41 698 512\nr42 703 1024\nr43 726 64\nr44 739 1024\nr45 751 256\nr46 762 256\nr47 783 16\nr48 789 64\nr49 813 16\nr50 826 16\nr51 851 512\nr52 872 16\nr53 898 16\nr54 912 256\nr55 935 64\nr56 935 64\nr57 942 1024\nr58 942 512\nr59 945 256\n",
                "@69 r0 r1\n@110 r2 r3\n@163 r4 r5\n@194 r6 r7\n@234 r8 r9 r10 r11\n@287 r12 r13\n@331 r14 r15 r16 r17\n@371 r18 r19 r20\n@414 r21 r22\n@446 r23 r24\n@480 r25 r26\n@500 r27 r28\n@539 r29 r30\n@571 r31 r32\n@611 r33 r34 r35\n@666 r36 r37\n@703 r38 r39 r40 r41\n@739 r42 r43\n@762 r44 r45\n@802 r46 r47 r48\n@853 r49 r50 r51\n@912 r52 r53 r54\n@942 r55 r56\n@945 r57 r58\n@985 r59\nwaste 11760\n",
            ),
        ],
    },
]
