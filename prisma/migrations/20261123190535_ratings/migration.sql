-- CreateTable
CREATE TABLE "Rating" (
    "guildId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mu" DOUBLE PRECISION NOT NULL,
    "sigma" DOUBLE PRECISION NOT NULL,
    "games" INTEGER NOT NULL,
    "wins" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Rating_pkey" PRIMARY KEY ("guildId","kind","subjectId")
);

-- CreateTable
CREATE TABLE "RatedGame" (
    "gameId" TEXT NOT NULL,
    "guildId" TEXT NOT NULL,
    "counted" BOOLEAN NOT NULL,
    "ratedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RatedGame_pkey" PRIMARY KEY ("gameId")
);

-- CreateTable
CREATE TABLE "RatingOptIn" (
    "guildId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "since" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RatingOptIn_pkey" PRIMARY KEY ("guildId","userId")
);

-- AddForeignKey
ALTER TABLE "RatedGame" ADD CONSTRAINT "RatedGame_gameId_fkey" FOREIGN KEY ("gameId") REFERENCES "Game"("id") ON DELETE CASCADE ON UPDATE CASCADE;
