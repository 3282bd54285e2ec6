-- CreateTable
CREATE TABLE "Persona" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "scopeKey" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "guildId" TEXT,
    "ownerId" TEXT NOT NULL,
    "builtIn" BOOLEAN NOT NULL DEFAULT false,
    "profile" JSONB NOT NULL,
    "avatarUrl" TEXT,
    "tags" TEXT[],
    "notes" TEXT NOT NULL DEFAULT '',
    "card" JSONB,
    "version" INTEGER NOT NULL DEFAULT 1,
    "arcId" TEXT,
    "arcStage" INTEGER NOT NULL DEFAULT 0,
    "compiledSummary" JSONB,
    "compiledDetail" JSONB,
    "compiledAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Persona_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PersonaPart" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "scopeKey" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "builtIn" BOOLEAN NOT NULL DEFAULT false,
    "type" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PersonaPart_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PersonaPartLink" (
    "personaId" TEXT NOT NULL,
    "partId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "PersonaPartLink_pkey" PRIMARY KEY ("personaId","partId")
);

-- CreateTable
CREATE TABLE "PersonaTrait" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "scopeKey" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "builtIn" BOOLEAN NOT NULL DEFAULT false,
    "type" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "instruction" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PersonaTrait_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PersonaTraitLink" (
    "personaId" TEXT NOT NULL,
    "traitId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "PersonaTraitLink_pkey" PRIMARY KEY ("personaId","traitId")
);

-- CreateTable
CREATE TABLE "PersonaArc" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "scopeKey" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "builtIn" BOOLEAN NOT NULL DEFAULT false,
    "summary" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PersonaArc_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PersonaArcStage" (
    "id" TEXT NOT NULL,
    "arcId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "condition" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "PersonaArcStage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PersonaArcStagePart" (
    "stageId" TEXT NOT NULL,
    "partId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "PersonaArcStagePart_pkey" PRIMARY KEY ("stageId","partId")
);

-- CreateIndex
CREATE INDEX "Persona_arcId_idx" ON "Persona"("arcId");

-- CreateIndex
CREATE UNIQUE INDEX "Persona_scopeKey_nameKey_key" ON "Persona"("scopeKey", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "PersonaPart_scopeKey_nameKey_key" ON "PersonaPart"("scopeKey", "nameKey");

-- CreateIndex
CREATE INDEX "PersonaPartLink_partId_idx" ON "PersonaPartLink"("partId");

-- CreateIndex
CREATE UNIQUE INDEX "PersonaTrait_scopeKey_nameKey_key" ON "PersonaTrait"("scopeKey", "nameKey");

-- CreateIndex
CREATE INDEX "PersonaTraitLink_traitId_idx" ON "PersonaTraitLink"("traitId");

-- CreateIndex
CREATE UNIQUE INDEX "PersonaArc_scopeKey_nameKey_key" ON "PersonaArc"("scopeKey", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "PersonaArcStage_arcId_position_key" ON "PersonaArcStage"("arcId", "position");

-- CreateIndex
CREATE INDEX "PersonaArcStagePart_partId_idx" ON "PersonaArcStagePart"("partId");

-- AddForeignKey
ALTER TABLE "Persona" ADD CONSTRAINT "Persona_arcId_fkey" FOREIGN KEY ("arcId") REFERENCES "PersonaArc"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonaPartLink" ADD CONSTRAINT "PersonaPartLink_personaId_fkey" FOREIGN KEY ("personaId") REFERENCES "Persona"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonaPartLink" ADD CONSTRAINT "PersonaPartLink_partId_fkey" FOREIGN KEY ("partId") REFERENCES "PersonaPart"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonaTraitLink" ADD CONSTRAINT "PersonaTraitLink_personaId_fkey" FOREIGN KEY ("personaId") REFERENCES "Persona"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonaTraitLink" ADD CONSTRAINT "PersonaTraitLink_traitId_fkey" FOREIGN KEY ("traitId") REFERENCES "PersonaTrait"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonaArcStage" ADD CONSTRAINT "PersonaArcStage_arcId_fkey" FOREIGN KEY ("arcId") REFERENCES "PersonaArc"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonaArcStagePart" ADD CONSTRAINT "PersonaArcStagePart_stageId_fkey" FOREIGN KEY ("stageId") REFERENCES "PersonaArcStage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonaArcStagePart" ADD CONSTRAINT "PersonaArcStagePart_partId_fkey" FOREIGN KEY ("partId") REFERENCES "PersonaPart"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
